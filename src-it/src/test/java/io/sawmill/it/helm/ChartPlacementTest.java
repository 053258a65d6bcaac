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
import static io.sawmill.it.helm.SawmillChart.map;
import static io.sawmill.it.helm.SawmillChart.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Zone-aware placement, Kafka rack awareness, Guaranteed QoS and static membership. */
class ChartPlacementTest {

	@Test
	void shouldSpreadOverNodesAndZonesWithoutEverLeavingAPodPendingByDefault() {
		SawmillChart.Manifests defaults = render("defaults");

		assertThat(defaults.podSpec()).doesNotContainKey("affinity");
		List<Object> spread = list(defaults.podSpec(), "topologySpreadConstraints");
		assertThat(spread).extracting(c -> asMap(c).get("topologyKey"))
			.containsExactly("kubernetes.io/hostname", "topology.kubernetes.io/zone");
		assertThat(spread).allSatisfy(c -> {
			assertThat(asMap(c)).containsEntry("whenUnsatisfiable", "ScheduleAnyway").containsEntry("maxSkew", 1);
			assertThat(map(asMap(c), "labelSelector.matchLabels"))
				.isEqualTo(map(defaults.workload(), "spec.selector.matchLabels"));
		});
	}

	@Test
	void shouldDropASpreadThatIsSwitchedOffAndKeepExtraConstraintsAfterTheRest() {
		SawmillChart.Manifests rendered = render("defaults",
				Map.of("topologySpread.nodes.enabled", false, "topologySpreadConstraints[0].maxSkew", 2,
						"topologySpreadConstraints[0].topologyKey", "example.com/rack",
						"topologySpreadConstraints[0].whenUnsatisfiable", "DoNotSchedule"));

		assertThat(list(rendered.podSpec(), "topologySpreadConstraints")).extracting(c -> asMap(c).get("topologyKey"))
			.containsExactly("topology.kubernetes.io/zone", "example.com/rack");
	}

	@Test
	void shouldPreferTheRedisPrimaryZoneAndSpreadAcrossZonesWhenZoneAware() {
		SawmillChart.Manifests zoneAware = render("zone-aware");
		Map<String, Object> pod = zoneAware.podSpec();

		Map<String, Object> podAffinity = asMap(
				list(pod, "affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution").get(0));
		assertThat(at(podAffinity, "podAffinityTerm.topologyKey")).isEqualTo("topology.kubernetes.io/zone");
		assertThat(map(podAffinity, "podAffinityTerm.labelSelector.matchLabels"))
			.containsEntry("app.kubernetes.io/name", "redis")
			.containsEntry("app.kubernetes.io/component", "primary");
		assertThat(at(podAffinity, "podAffinityTerm.namespaces")).isEqualTo(List.of("data"));
		assertThat(at(pod, "affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution")).isNull();

		Map<String, Object> nodePreference = asMap(
				list(pod, "affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution").get(0));
		assertThat(asMap(list(nodePreference, "preference.matchExpressions").get(0)))
			.containsEntry("key", "topology.kubernetes.io/zone")
			.containsEntry("values", List.of("eu-west-1a"));

		Map<String, Object> spread = list(pod, "topologySpreadConstraints").stream()
			.map(SawmillChart::asMap)
			.filter(c -> "topology.kubernetes.io/zone".equals(c.get("topologyKey")))
			.findFirst()
			.orElseThrow();
		assertThat(spread).containsEntry("topologyKey", "topology.kubernetes.io/zone")
			.containsEntry("whenUnsatisfiable", "ScheduleAnyway")
			.containsEntry("maxSkew", 1);
		assertThat(map(spread, "labelSelector.matchLabels"))
			.isEqualTo(map(zoneAware.workload(), "spec.selector.matchLabels"));
	}

	@Test
	void shouldReferenceTheRedisPasswordSecretWithoutInliningIt() {
		Map<String, Object> password = render("zone-aware").env().get("SPRING_DATA_REDIS_PASSWORD");

		assertThat(password).doesNotContainKey("value");
		assertThat(map(password, "valueFrom.secretKeyRef")).containsEntry("name", "redis-auth")
			.containsEntry("key", "redis-password");
	}

	@Test
	void shouldReadTheZoneInAnInitContainerWithMinimalRbacWhenRackAware() {
		SawmillChart.Manifests rackAware = render("rack-aware");
		Map<String, Object> pod = rackAware.podSpec();

		assertThat(pod).containsEntry("automountServiceAccountToken", true);
		Map<String, Object> init = asMap(list(pod, "initContainers").get(0));
		assertThat(init.get("name")).isEqualTo("client-rack");
		assertThat(list(init, "command").get(2).toString()).contains("kubectl get node \"$NODE_NAME\"")
			.contains("topology\\.kubernetes\\.io/zone")
			.contains("spring.kafka.consumer.properties[client.rack]=");
		assertThat(at(init, "securityContext.readOnlyRootFilesystem")).isEqualTo(true);
		assertThat(rackAware.envValue("SPRING_CONFIG_IMPORT"))
			.isEqualTo("optional:file:/etc/sawmill/rack/rack.properties");

		Map<String, Object> rule = asMap(list(rackAware.one("ClusterRole"), "rules").get(0));
		assertThat(rule).containsEntry("resources", List.of("nodes")).containsEntry("verbs", List.of("get"));
		Map<String, Object> subject = asMap(list(rackAware.one("ClusterRoleBinding"), "subjects").get(0));
		assertThat(subject).containsEntry("name", pod.get("serviceAccountName"))
			.containsEntry("namespace", SawmillChart.NAMESPACE);
	}

	@Test
	void shouldReferenceKafkaCredentialsAndCaFromSecrets() {
		SawmillChart.Manifests rackAware = render("rack-aware");

		assertThat(map(rackAware.env().get("SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG"), "valueFrom.secretKeyRef"))
			.containsEntry("name", "kafka-client")
			.containsEntry("key", "sasl.jaas.config");
		assertThat(rackAware.envValue("SPRING_KAFKA_SECURITY_PROTOCOL")).isEqualTo("SASL_SSL");
		assertThat(rackAware.envValue("SPRING_KAFKA_SSL_TRUST_STORE_LOCATION"))
			.isEqualTo("file:/etc/sawmill/kafka-ca/ca.crt");
		assertThat(list(rackAware.podSpec(), "volumes"))
			.anySatisfy(v -> assertThat(at(asMap(v), "secret.secretName")).isEqualTo("kafka-ca"));
	}

	@Test
	void shouldTakeClientRackFromThePodLabelWithoutATokenInDownwardApiMode() {
		SawmillChart.Manifests staticMembership = render("static-membership");

		assertThat(at(staticMembership.env().get("SPRING_KAFKA_CONSUMER_PROPERTIES_CLIENT_RACK"),
				"valueFrom.fieldRef.fieldPath"))
			.isEqualTo("metadata.labels['topology.kubernetes.io/zone']");
		assertThat(staticMembership.podSpec()).containsEntry("automountServiceAccountToken", false);
		assertThat(staticMembership.has("ClusterRole")).isFalse();
	}

	@Test
	void shouldSetEqualWholeCpuRequestAndLimitForGuaranteedQos() {
		Map<String, Object> resources = map(render("guaranteed-qos").sawmill(), "resources");

		assertThat(at(resources, "limits.cpu")).isEqualTo(at(resources, "requests.cpu"));
		assertThat(at(resources, "limits.memory")).isEqualTo(at(resources, "requests.memory"));
		assertThat(at(resources, "requests.cpu").toString()).matches("[1-9][0-9]*");
		assertThat(render("guaranteed-qos").envValue("JAVA_TOOL_OPTIONS")).contains("-XX:ActiveProcessorCount=2");
	}

	@Test
	void shouldRefuseFractionalCpusForGuaranteedQos() {
		assertThatThrownBy(() -> render("guaranteed-qos", Map.of("resources.requests.cpu", "1500m")))
			.hasMessageContaining("whole number of CPUs");
	}

	@Test
	void shouldRunAStatefulSetWithThePodNameAsGroupInstanceIdForStaticMembership() {
		SawmillChart.Manifests staticMembership = render("static-membership");

		assertThat(staticMembership.has("Deployment")).isFalse();
		Map<String, Object> statefulSet = staticMembership.one("StatefulSet");
		assertThat(at(staticMembership.env().get("SPRING_KAFKA_CONSUMER_PROPERTIES_GROUP_INSTANCE_ID"),
				"valueFrom.fieldRef.fieldPath"))
			.isEqualTo("metadata.name");
		assertThat(staticMembership.envValue("SPRING_KAFKA_CONSUMER_PROPERTIES_SESSION_TIMEOUT_MS")).isEqualTo("90000");
		assertThat(staticMembership.all("Service")).anySatisfy(s -> {
			assertThat(at(s, "metadata.name")).isEqualTo(at(statefulSet, "spec.serviceName"));
			assertThat(at(s, "spec.clusterIP")).isEqualTo("None");
		});
	}

}
