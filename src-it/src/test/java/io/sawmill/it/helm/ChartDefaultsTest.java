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

import static io.sawmill.it.helm.SawmillChart.at;
import static io.sawmill.it.helm.SawmillChart.map;
import static io.sawmill.it.helm.SawmillChart.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.LIST;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The defaults carry the field lessons: CPU request without limit, hardened pods,
 * graceful stop.
 */
class ChartDefaultsTest {

	private final SawmillChart.Manifests defaults = render("defaults");

	@Test
	void shouldRequestCpuWithoutLimitingIt() {
		Map<String, Object> resources = map(defaults.sawmill(), "resources");

		assertThat(at(resources, "requests.cpu")).isNotNull();
		assertThat(at(resources, "requests.memory")).isNotNull();
		assertThat(map(resources, "limits")).doesNotContainKey("cpu").containsKey("memory");
	}

	@Test
	void shouldHardenThePodAndContainer() {
		Map<String, Object> pod = defaults.podSpec();
		Map<String, Object> container = map(defaults.sawmill(), "securityContext");

		assertThat(at(pod, "securityContext.runAsNonRoot")).isEqualTo(true);
		assertThat(at(pod, "securityContext.seccompProfile.type")).isEqualTo("RuntimeDefault");
		assertThat(container).containsEntry("runAsNonRoot", true)
			.containsEntry("readOnlyRootFilesystem", true)
			.containsEntry("allowPrivilegeEscalation", false);
		assertThat(at(container, "capabilities.drop")).isEqualTo(List.of("ALL"));
		assertThat(at(container, "seccompProfile.type")).isEqualTo("RuntimeDefault");
	}

	@Test
	void shouldNotMountAServiceAccountTokenByDefault() {
		assertThat(defaults.podSpec()).containsEntry("automountServiceAccountToken", false);
		assertThat(defaults.one("ServiceAccount")).containsEntry("automountServiceAccountToken", false);
		assertThat(defaults.has("ClusterRole")).isFalse();
		assertThat(defaults.podSpec()).doesNotContainKey("initContainers");
	}

	@Test
	void shouldRenderAPodDisruptionBudgetOfOne() {
		assertThat(at(defaults.one("PodDisruptionBudget"), "spec.maxUnavailable")).isEqualTo(1);
	}

	@Test
	void shouldProbeTheActuatorHealthGroups() {
		assertThat(at(defaults.sawmill(), "livenessProbe.httpGet.path")).isEqualTo("/actuator/health/liveness");
		assertThat(at(defaults.sawmill(), "readinessProbe.httpGet.path")).isEqualTo("/actuator/health/readiness");
		assertThat(at(defaults.sawmill(), "startupProbe.httpGet.path")).isEqualTo("/actuator/health/liveness");
	}

	@Test
	void shouldGiveShutdownMoreTimeThanTheAppNeeds() {
		int grace = (Integer) defaults.podSpec().get("terminationGracePeriodSeconds");

		assertThat(defaults.envValue("SAWMILL_SHUTDOWN_TIMEOUT")).isEqualTo("30s");
		assertThat(grace).isGreaterThan(30 + 5);
		assertThat(at(defaults.sawmill(), "lifecycle.preStop.exec.command")).asInstanceOf(LIST).contains("sleep 5");
	}

	@Test
	void shouldRefuseAGracePeriodShorterThanTheShutdownTimeout() {
		assertThatThrownBy(() -> render("defaults", Map.of("terminationGracePeriodSeconds", 30)))
			.hasMessageContaining("terminationGracePeriodSeconds must be greater than");
	}

	@Test
	void shouldMountAWritableTmpUnderTheReadOnlyRoot() {
		assertThat(SawmillChart.list(defaults.sawmill(), "volumeMounts"))
			.anySatisfy(m -> assertThat(SawmillChart.asMap(m)).containsEntry("mountPath", "/tmp"));
	}

	@Test
	void shouldPassTheAppContractAsEnvironmentVariables() {
		assertThat(defaults.envValue("SAWMILL_TOPICS")).isEqualTo("events");
		assertThat(defaults.envValue("SAWMILL_GROUP_ID")).isEqualTo("sawmill");
		assertThat(defaults.envValue("SAWMILL_CONCURRENCY")).isEqualTo("2");
		assertThat(defaults.envValue("SAWMILL_BATCH_SIZE")).isEqualTo("1000");
		assertThat(defaults.envValue("SPRING_KAFKA_BOOTSTRAP_SERVERS")).isEqualTo("kafka:9092");
		assertThat(defaults.envValue("SPRING_DATA_REDIS_HOST")).isEqualTo("redis");
		assertThat(defaults.env()).doesNotContainKeys("SPRING_DATA_REDIS_PASSWORD",
				"SPRING_KAFKA_CONSUMER_PROPERTIES_CLIENT_RACK", "SPRING_APPLICATION_JSON");
	}

	@Test
	void shouldJoinListValuesWithCommas() {
		SawmillChart.Manifests manifests = render("defaults",
				Map.of("sawmill.topics[0]", "orders", "sawmill.topics[1]", "users", "sawmill.mapping.fields[0]", "id",
						"sawmill.mapping.fields[1]", "name", "sawmill.mapping.ttl", "1h"));

		assertThat(manifests.envValue("SAWMILL_TOPICS")).isEqualTo("orders,users");
		assertThat(manifests.envValue("SAWMILL_MAPPING_FIELDS")).isEqualTo("id,name");
		assertThat(manifests.envValue("SAWMILL_MAPPING_TTL")).isEqualTo("1h");
	}

	@ParameterizedTest(name = "cpu request {0} -> -XX:ActiveProcessorCount={1}")
	@CsvSource({ "100m, 1", "500m, 1", "1, 1", "1000m, 1", "1500m, 2", "2500m, 3", "1.5, 2", "4, 4" })
	void shouldSizeTheJvmFromTheCpuRequestRoundedUp(String cpu, int processors) {
		SawmillChart.Manifests manifests = render("defaults", Map.of("resources.requests.cpu", cpu));

		assertThat(manifests.envValue("JAVA_TOOL_OPTIONS")).isEqualTo("-XX:ActiveProcessorCount=" + processors);
	}

	@Test
	void shouldAppendExtraJvmOptions() {
		SawmillChart.Manifests manifests = render("defaults", Map.of("jvm.extraOptions", "-Xss512k"));

		assertThat(manifests.envValue("JAVA_TOOL_OPTIONS")).isEqualTo("-XX:ActiveProcessorCount=1 -Xss512k");
	}

}
