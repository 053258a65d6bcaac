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
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Lag autoscaling capped by partitions, the idle-consumer warning, and the monitoring
 * objects.
 */
class ChartScalingAndMonitoringTest {

	/** The metric names the app exports (issue 6's app contract). */
	private static final Set<String> SAWMILL_METRICS = Set.of("sawmill_lag_records", "sawmill_lag_seconds",
			"sawmill_batch_duration_seconds_bucket", "sawmill_batch_duration_seconds_count",
			"sawmill_batch_duration_seconds_sum", "sawmill_redis_pipeline_duration_seconds_bucket",
			"sawmill_records_total", "sawmill_redis_rtt_seconds",
			// issue 4 (observability); src-it's ObservabilityIT checks every name against
			// a scrape of the running app
			"sawmill_redis_ping_duration_seconds_bucket", "sawmill_batch_records_sum", "sawmill_batch_records_count",
			"sawmill_redis_commands_sum", "sawmill_redis_commands_count", "sawmill_cpu_periods_total",
			"sawmill_cpu_throttled_periods_total", "sawmill_cpu_throttled_seconds_total", "sawmill_listener_paused",
			"sawmill_redis_replica_shortfall",
			// issue 32 (share groups): exported in sawmill.consumption.mode=share only
			"sawmill_share_acknowledgements_total", "sawmill_share_backlog_records", "sawmill_share_redeliveries_total",
			"sawmill_share_acknowledgement_failures_total", "sawmill_share_delivery_count_bucket",
			"sawmill_share_records_acquired_total");

	private final SawmillChart.Manifests keda = render("keda");

	@Test
	void shouldCapKedaMaxReplicasAtWhatThePartitionsCanFeed() {
		Map<String, Object> scaledObject = keda.one("ScaledObject");
		int maxReplicas = (Integer) at(scaledObject, "spec.maxReplicaCount");

		// ci/keda-values.yaml: 12 partitions, concurrency 3, maxReplicas 20 -> ceil(12 /
		// 3) = 4
		assertThat(maxReplicas).isLessThanOrEqualTo(12).isEqualTo(4);
		assertThat(at(scaledObject, "spec.scaleTargetRef.kind")).isEqualTo("Deployment");
		assertThat(at(scaledObject, "spec.scaleTargetRef.name")).isEqualTo(at(keda.workload(), "metadata.name"));
		Map<String, Object> trigger = asMap(list(scaledObject, "spec.triggers").get(0));
		assertThat(trigger.get("type")).isEqualTo("kafka");
		assertThat(asMap(trigger.get("metadata"))).containsEntry("consumerGroup", "sawmill")
			.containsEntry("topic", "events")
			.containsEntry("allowIdleConsumers", "false");
	}

	@Test
	void shouldScaleAShareGroupPastThePartitionsOnItsBacklog() {
		SawmillChart.Manifests share = render("keda", Map.of("sawmill.consumption.mode", "share",
				"autoscaling.keda.prometheusServerAddress", "http://prometheus:9090"));
		Map<String, Object> scaledObject = share.one("ScaledObject");

		// ci/keda-values.yaml: 12 partitions, maxReplicas 20, not capped: consumers share
		// partitions
		assertThat(at(scaledObject, "spec.maxReplicaCount")).isEqualTo(20);
		Map<String, Object> trigger = asMap(list(scaledObject, "spec.triggers").get(0));
		assertThat(trigger.get("type")).isEqualTo("prometheus");
		assertThat(asMap(trigger.get("metadata"))).containsEntry("serverAddress", "http://prometheus:9090")
			.containsEntry("query",
					"sum(max by (topic, partition) (sawmill_share_backlog_records{share_group=\"sawmill\"}))")
			.containsEntry("threshold", "1000");
		assertThat(share.envValue("SAWMILL_CONSUMPTION_MODE")).isEqualTo("share");
		assertThat(SawmillChart.installNotes("defaults",
				Map.of("replicaCount", 8, "sawmill.concurrency", 2, "sawmill.consumption.mode", "share")))
			.doesNotContain("WARNING");
	}

	@Test
	void shouldRefuseToScaleAShareGroupOnConsumerGroupLag() {
		assertThatThrownBy(() -> render("keda", Map.of("sawmill.consumption.mode", "share")))
			.hasMessageContaining("prometheusServerAddress");
		assertThatThrownBy(
				() -> render("defaults", Map.of("sawmill.consumption.mode", "share", "autoscaling.hpa.enabled", true)))
			.hasMessageContaining("use autoscaling.keda");
	}

	@Test
	void shouldLeaveReplicasToTheAutoscaler() {
		assertThat(asMap(keda.workload().get("spec"))).doesNotContainKey("replicas");
	}

	@Test
	void shouldCapHpaMaxReplicasAtThePartitionCount() {
		SawmillChart.Manifests hpa = render("defaults",
				Map.of("autoscaling.hpa.enabled", true, "autoscaling.hpa.maxReplicas", 50, "sawmill.concurrency", 1));
		Map<String, Object> autoscaler = hpa.one("HorizontalPodAutoscaler");

		assertThat(at(autoscaler, "spec.maxReplicas")).isEqualTo(12);
		assertThat(at(asMap(list(autoscaler, "spec.metrics").get(0)), "pods.metric.name"))
			.isEqualTo("sawmill_lag_records");
	}

	@Test
	void shouldRefuseTwoAutoscalers() {
		assertThatThrownBy(() -> render("keda", Map.of("autoscaling.hpa.enabled", true)))
			.hasMessageContaining("exclusive");
	}

	@Test
	void shouldWarnWhenReplicasTimesConcurrencyExceedsPartitions() {
		String notes = SawmillChart.installNotes("defaults", Map.of("replicaCount", 8, "sawmill.concurrency", 2));

		assertThat(notes).contains("WARNING: replicas (8) x concurrency (2) = 16 consumers")
			.contains("4 consumer(s) will get no partition");
		assertThat(SawmillChart.installNotes("defaults", Map.of())).doesNotContain("WARNING");
	}

	@Test
	void shouldAlertOnLagAboveOneThousandForOneMinuteByDefault() {
		Map<String, Object> lag = rule("SawmillLagHigh");

		assertThat(lag.get("expr").toString()).startsWith("max by (topic, partition) (sawmill_group_lag_records")
			.endsWith("> 1000");
		assertThat(lag.get("for")).isEqualTo("1m");
	}

	@Test
	void shouldAlertOnADeadConsumerAndASlowBatchP99() {
		assertThat(rule("SawmillConsumerAbsent").get("expr").toString())
			.startsWith("absent(sawmill_batch_duration_seconds_count");
		assertThat(rule("SawmillBatchSlow").get("expr").toString()).contains("histogram_quantile(0.99")
			.contains("rate(sawmill_batch_duration_seconds_bucket");
	}

	@Test
	void shouldGiveEveryAlertASummaryAndItsOwnRunbookAnchor() {
		assertThat(rules()).isNotEmpty().allSatisfy(r -> {
			Map<String, Object> annotations = asMap(r.get("annotations"));
			assertThat(annotations.get("summary")).asString().isNotBlank();
			assertThat(annotations.get("runbook_url")).asString()
				.contains("docs/operations.md#" + r.get("alert").toString().toLowerCase());
		});
	}

	@Test
	void shouldTakeAlertThresholdsFromValues() {
		SawmillChart.Manifests tuned = render("keda",
				Map.of("metrics.prometheusRule.lag.threshold", 5000, "metrics.prometheusRule.lag.for", "5m"));
		Map<String, Object> lag = rules(tuned).stream()
			.filter(r -> "SawmillLagHigh".equals(r.get("alert")))
			.findFirst()
			.orElseThrow();

		assertThat(lag.get("expr").toString()).endsWith("> 5000");
		assertThat(lag.get("for")).isEqualTo("5m");
	}

	@Test
	void shouldScrapeTheActuatorPrometheusEndpoint() {
		Map<String, Object> endpoint = asMap(list(keda.one("ServiceMonitor"), "spec.endpoints").get(0));
		assertThat(endpoint).containsEntry("path", "/actuator/prometheus").containsEntry("port", "http");

		Map<String, Object> podEndpoint = asMap(
				list(render("static-membership").one("PodMonitor"), "spec.podMetricsEndpoints").get(0));
		assertThat(podEndpoint).containsEntry("path", "/actuator/prometheus");
	}

	@Test
	void shouldShipADashboardForTheGrafanaSidecarUsingOnlyExportedMetrics() {
		Map<String, Object> configMap = keda.one("ConfigMap");
		assertThat(at(configMap, "metadata.labels")).asInstanceOf(MAP).containsEntry("grafana_dashboard", "1");
		String json = (String) asMap(configMap.get("data")).get("sawmill.json");

		// JSON is YAML: parse it to prove it is well-formed.
		Map<String, Object> dashboard = asMap(new Yaml(new SafeConstructor(new LoaderOptions())).load(json));
		assertThat(dashboard.get("title")).isEqualTo("Sawmill");
		assertThat(list(dashboard, "panels")).isNotEmpty();
		Matcher names = Pattern.compile("\\bsawmill_[a-z_]+").matcher(json);
		while (names.find()) {
			assertThat(SAWMILL_METRICS).as("metric used by the dashboard").contains(names.group());
		}
	}

	@Test
	void shouldRenderNoMonitoringOrAutoscalingObjectsByDefault() {
		SawmillChart.Manifests defaults = render("defaults");

		for (String kind : List.of("ScaledObject", "HorizontalPodAutoscaler", "ServiceMonitor", "PodMonitor",
				"PrometheusRule", "ConfigMap")) {
			assertThat(defaults.has(kind)).as(kind).isFalse();
		}
	}

	private Map<String, Object> rule(String alert) {
		return rules().stream()
			.filter(r -> alert.equals(r.get("alert")))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no alert " + alert));
	}

	private List<Map<String, Object>> rules() {
		return rules(keda);
	}

	private static List<Map<String, Object>> rules(SawmillChart.Manifests manifests) {
		return list(manifests.one("PrometheusRule"), "spec.groups").stream()
			.flatMap(g -> list(asMap(g), "rules").stream())
			.map(SawmillChart::asMap)
			.toList();
	}

}
