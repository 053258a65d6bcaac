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
package io.sawmill.it.helm;

import static io.sawmill.it.helm.SawmillChart.asMap;
import static io.sawmill.it.helm.SawmillChart.at;
import static io.sawmill.it.helm.SawmillChart.list;
import static io.sawmill.it.helm.SawmillChart.render;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the chart tells the doctor: this pod's zone and the number of replicas
 * (docs/operations.md#doctor-findings).
 */
class ChartDoctorEnvTest {

	@Test
	void shouldTellTheDoctorTheReplicaCountUnlessAnAutoscalerOwnsIt() {
		assertThat(render("defaults").envValue("SAWMILL_DOCTOR_REPLICAS")).isEqualTo("2");
		assertThat(render("defaults", Map.of("replicaCount", 3)).envValue("SAWMILL_DOCTOR_REPLICAS")).isEqualTo("3");
		assertThat(render("defaults", Map.of("autoscaling.keda.enabled", true)).env())
			.doesNotContainKey("SAWMILL_DOCTOR_REPLICAS");
	}

	@Test
	void shouldTellTheDoctorThisPodsZoneFromTheSameSourceAsClientRack() {
		assertThat(render("defaults").env()).doesNotContainKey("SAWMILL_DOCTOR_ZONE");

		SawmillChart.Manifests downwardApi = render("defaults", Map.of("rackAwareness.enabled", true));
		assertThat(at(downwardApi.env().get("SAWMILL_DOCTOR_ZONE"), "valueFrom.fieldRef.fieldPath"))
			.isEqualTo("metadata.labels['topology.kubernetes.io/zone']");

		SawmillChart.Manifests initContainer = render("defaults",
				Map.of("rackAwareness.enabled", true, "rackAwareness.source", "initContainer"));
		Map<String, Object> init = asMap(list(initContainer.podSpec(), "initContainers").get(0));
		assertThat(list(init, "command").get(2).toString()).contains("sawmill.doctor.zone=%s");
	}

}
