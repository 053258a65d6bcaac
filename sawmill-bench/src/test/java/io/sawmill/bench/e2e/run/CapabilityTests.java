/*
 * Copyright 2026 the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
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
		assertThat(Capability.VERSION.properties())
			.containsExactly(Map.entry("sawmill.mapping.version", "field:version"));
	}

	@Test
	void shouldTellAVariantThisBuildDoesNotKnowFromOtherStartUpFailures() {
		RuntimeException unknown = new IllegalStateException("context failed",
				new RuntimeException("Unknown property sawmill.coalesce-writes; did you mean sawmill.concurrency?\n"
						+ "Correct or remove the property."));

		assertThat(VariantDrainer.unknownPropertyIn(Capability.COALESCE.properties(), unknown))
			.isEqualTo("sawmill.coalesce-writes");
		assertThat(VariantDrainer.unknownPropertyIn(Capability.VERSION.properties(), unknown)).isNull();
		assertThat(VariantDrainer.unknownPropertyIn(Capability.COALESCE.properties(),
				new IllegalStateException("Connection refused")))
			.isNull();
	}

}
