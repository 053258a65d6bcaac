package io.sawmill.bench.e2e.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sawmill.bench.e2e.workload.Capability;

class CapabilityTests {

	@Test
	void shouldPassEachCapabilitysSwitchToSawmill() {
		assertThat(Capability.PLAIN.properties()).isEmpty();
		assertThat(Capability.COALESCE.properties()).containsExactly(Map.entry("sawmill.coalesce-writes", "true"));
		assertThat(Capability.VERSION.properties()).containsExactly(Map.entry("sawmill.mapping.version", "field:version"));
	}

	@Test
	void shouldTellAVariantThisBuildDoesNotKnowFromOtherStartUpFailures() {
		RuntimeException unknown = new IllegalStateException("context failed",
				new RuntimeException("Unknown property sawmill.coalesce-writes; did you mean sawmill.concurrency?\n"
						+ "Correct or remove the property."));

		assertThat(VariantDrainer.unknownPropertyIn(Capability.COALESCE.properties(), unknown)).isEqualTo("sawmill.coalesce-writes");
		assertThat(VariantDrainer.unknownPropertyIn(Capability.VERSION.properties(), unknown)).isNull();
		assertThat(VariantDrainer.unknownPropertyIn(Capability.COALESCE.properties(),
				new IllegalStateException("Connection refused"))).isNull();
	}
}
