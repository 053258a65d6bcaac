package io.sawmill.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

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

		assertThat(Capability.COALESCE.unknownPropertyIn(unknown)).isEqualTo("sawmill.coalesce-writes");
		assertThat(Capability.VERSION.unknownPropertyIn(unknown)).isNull();
		assertThat(Capability.COALESCE.unknownPropertyIn(new IllegalStateException("Connection refused"))).isNull();
	}
}
