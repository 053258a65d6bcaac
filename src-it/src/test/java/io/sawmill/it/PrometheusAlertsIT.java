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
package io.sawmill.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

import io.sawmill.it.support.AlertRules;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaExporterStandIn;
import io.sawmill.it.support.PrometheusServer;
import io.sawmill.it.support.PrometheusServer.Alert;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.SampleEvents;

/**
 * The chart's alert rules loaded into a real Prometheus server (Debian's
 * {@code prometheus}) that scrapes the running service every second, against a real
 * broker and redis-server: the lag alert fires while records wait, resolves once they are
 * drained, and keeps firing when every consumer stops with lag left, until no source
 * reports the lag and {@code SawmillLagUnknown} takes over.
 * <p>
 * The rules are the chart's as rendered for this test's group, with one change: every
 * {@code for:} is shortened to {@value #FOR} (the shipped 1 to 10 minutes would make this
 * test take that long); expressions and thresholds are as shipped. The lag source that
 * outlives the service is {@link KafkaExporterStandIn}: a separate scrape target serving
 * kafka-exporter's {@code kafka_consumergroup_lag}, as kafka-exporter would in production
 * (it is not packaged here).
 */
class PrometheusAlertsIT {

	private static final String TOPIC = "alerted";

	private static final String GROUP = "alerted-writers";

	private static final int PARTITIONS = 2;

	private static final long RECORDS = 6_000;

	private static final String FOR = "10s";

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, PARTITIONS);

	@Test
	void shouldFireTheLagAlertResolveItOnceDrainedAndKeepItFiringWhenEveryConsumerStops(@TempDir Path dir)
			throws Exception {
		Path rules = AlertRules.write(AlertRules.groups(Map.of("sawmill.groupId", GROUP)), rule -> {
			rule.computeIfPresent("for", (key, shipped) -> FOR);
			return rule;
		}, dir.resolve(AlertRules.RULES_FILE_NAME));
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, GROUP);
		properties.put("sawmill.metrics.lag-interval", "1s");
		String bootstrap = servers.kafka().bootstrapServers();
		ConfigurableApplicationContext app = SawmillApp.run(properties);
		try (KafkaExporterStandIn kafkaExporter = new KafkaExporterStandIn(bootstrap, TOPIC, GROUP);
				Admin admin = Kafka.admin(bootstrap)) {
			int port = app.getBean(Environment.class).getRequiredProperty("local.server.port", Integer.class);
			ConcurrentMessageListenerContainer<?, ?> container = app.getBean(ConcurrentMessageListenerContainer.class);
			try (PrometheusServer prometheus = PrometheusServer.start(dir, Map.of("sawmill",
					"127.0.0.1:" + port + "/actuator/prometheus", "kafka-exporter", kafkaExporter.target()), rules)) {
				await().atMost(Duration.ofSeconds(60))
					.until(() -> prometheus
						.value("count(sawmill_group_lag_records{group=\"" + GROUP + "\"})") == PARTITIONS
							&& prometheus.value("count(kafka_consumergroup_lag)") == PARTITIONS);
				assertThat(prometheus.alerts("SawmillLagHigh")).isEmpty();

				// a backlog builds while the listener is paused: pending, then firing
				// after FOR
				container.pause();
				Kafka.produce(bootstrap, TOPIC, 0, RECORDS, SampleEvents::userId, SampleEvents::json);
				await().atMost(Duration.ofSeconds(90))
					.until(() -> states(prometheus, "SawmillLagHigh").contains("pending")
							|| states(prometheus, "SawmillLagHigh").contains("firing"));
				await().atMost(Duration.ofSeconds(90))
					.until(() -> states(prometheus, "SawmillLagHigh").equals(List.of("firing", "firing")));
				assertThat(prometheus.alerts("SawmillLagHigh"))
					.allSatisfy(alert -> assertThat(alert.labels()).containsEntry("topic", TOPIC)
						.containsEntry("severity", "warning")
						.containsKey("partition"));

				// drained: resolved
				container.resume();
				await().atMost(Duration.ofSeconds(90))
					.until(() -> Kafka.committedOffsets(admin, GROUP)
						.equals(Kafka.endOffsets(admin, TOPIC, PARTITIONS)));
				await().atMost(Duration.ofSeconds(60)).until(() -> prometheus.alerts("SawmillLagHigh").isEmpty());

				// lag again, then every consumer stops: the alert stays firing, its "for"
				// clock untouched
				container.pause();
				Kafka.produce(bootstrap, TOPIC, RECORDS, 2 * RECORDS, SampleEvents::userId, SampleEvents::json);
				await().atMost(Duration.ofSeconds(90))
					.until(() -> states(prometheus, "SawmillLagHigh").equals(List.of("firing", "firing")));
				List<String> firingSince = prometheus.alerts("SawmillLagHigh")
					.stream()
					.map(Alert::activeAt)
					.sorted()
					.toList();
				app.close();
				await().atMost(Duration.ofSeconds(30))
					.until(() -> prometheus.value("up{job=\"sawmill\"}") == 0
							&& Double.isNaN(prometheus.value("count(sawmill_group_lag_records)")));
				await().during(Duration.ofSeconds(20))
					.atMost(Duration.ofSeconds(60))
					.until(() -> prometheus.alerts("SawmillLagHigh")
						.stream()
						.map(Alert::activeAt)
						.sorted()
						.toList()
						.equals(firingSince) && states(prometheus, "SawmillLagHigh").equals(List.of("firing", "firing"))
							&& prometheus.alerts("SawmillLagUnknown").isEmpty());

				// no source reports the lag any more: SawmillLagUnknown fires after the
				// same FOR
				kafkaExporter.stop();
				await().atMost(Duration.ofSeconds(60)).until(() -> prometheus.alerts("SawmillLagHigh").isEmpty());
				await().atMost(Duration.ofSeconds(60))
					.until(() -> states(prometheus, "SawmillLagUnknown").equals(List.of("firing")));
				assertThat(prometheus.alerts("SawmillLagUnknown").get(0).labels()).containsEntry("severity",
						"critical");
			}
		}
		finally {
			app.close();
		}
	}

	private static List<String> states(PrometheusServer prometheus, String alert) throws Exception {
		return prometheus.alerts(alert).stream().map(Alert::state).sorted().toList();
	}

}
