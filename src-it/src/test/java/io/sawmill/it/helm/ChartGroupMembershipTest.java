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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How the consumers join their group: the session that bounds a killed pod's stall, the
 * protocol, the reset policy.
 */
class ChartGroupMembershipTest {

	@Test
	void shouldMoveAKilledPodsPartitionsAfterTenSecondsNotKafkasFortyFiveByDefault() {
		SawmillChart.Manifests defaults = render("defaults");

		assertThat(defaults.has("Deployment")).isTrue();
		assertThat(defaults.envValue("SPRING_KAFKA_CONSUMER_PROPERTIES_SESSION_TIMEOUT_MS")).isEqualTo("10000");
		assertThat(defaults.envValue("SPRING_KAFKA_CONSUMER_PROPERTIES_HEARTBEAT_INTERVAL_MS")).isEqualTo("3000");
		assertThat(defaults.env()).doesNotContainKeys("SPRING_KAFKA_CONSUMER_PROPERTIES_GROUP_PROTOCOL",
				"SPRING_KAFKA_CONSUMER_PROPERTIES_GROUP_INSTANCE_ID");
	}

	@Test
	void shouldLeaveTheSessionToTheBrokerWithTheConsumerGroupProtocol() {
		SawmillChart.Manifests kip848 = render("defaults", Map.of("kafka.groupProtocol", "consumer"));

		assertThat(kip848.envValue("SPRING_KAFKA_CONSUMER_PROPERTIES_GROUP_PROTOCOL")).isEqualTo("consumer");
		// the consumer protocol rejects these client-side settings
		assertThat(kip848.env()).doesNotContainKeys("SPRING_KAFKA_CONSUMER_PROPERTIES_SESSION_TIMEOUT_MS",
				"SPRING_KAFKA_CONSUMER_PROPERTIES_HEARTBEAT_INTERVAL_MS");
		SawmillChart.Manifests staticKip848 = render("static-membership", Map.of("kafka.groupProtocol", "consumer"));
		assertThat(staticKip848.env()).containsKey("SPRING_KAFKA_CONSUMER_PROPERTIES_GROUP_INSTANCE_ID")
			.doesNotContainKey("SPRING_KAFKA_CONSUMER_PROPERTIES_SESSION_TIMEOUT_MS");
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "defaults", "zone-aware", "rack-aware", "keda", "guaranteed-qos", "static-membership" })
	void shouldSetEveryEnvironmentVariableOnce(String scenario) {
		SawmillChart.Manifests rendered = render(scenario);

		assertThat(list(rendered.sawmill(), "env")).extracting(e -> asMap(e).get("name")).doesNotHaveDuplicates();
	}

	@Test
	void shouldStartANewGroupAtTheSameOffsetInTheAppAndInKeda() {
		for (String reset : new String[] { "earliest", "latest" }) {
			SawmillChart.Manifests keda = render("keda", Map.of("kafka.autoOffsetReset", reset));
			Map<String, Object> trigger = asMap(list(keda.one("ScaledObject"), "spec.triggers").get(0));

			assertThat(keda.envValue("SPRING_KAFKA_CONSUMER_AUTO_OFFSET_RESET")).isEqualTo(reset);
			assertThat(at(trigger, "metadata.offsetResetPolicy")).isEqualTo(reset);
		}
		assertThat(render("defaults").envValue("SPRING_KAFKA_CONSUMER_AUTO_OFFSET_RESET")).isEqualTo("earliest");
	}

	@Test
	void shouldRefuseAHeartbeatLongerThanAThirdOfTheSession() {
		assertThatThrownBy(() -> render("defaults", Map.of("kafka.heartbeatIntervalMs", 4000))).hasMessageContaining(
				"kafka.heartbeatIntervalMs must be at most a third of kafka.sessionTimeoutMs (10000), but was 4000");
	}

}
