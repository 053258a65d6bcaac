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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.it.support.AlertRules;
import io.sawmill.it.support.BatchCounter;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.it.support.Scrape;
import io.sawmill.metrics.internal.CgroupCpuStat;
import io.sawmill.testkit.SampleEvents;

/**
 * The metrics an operator relies on, read from the real service against a real broker and
 * a real redis-server: lag while the listener is paused and after it resumes, batch and
 * outcome counts, the Prometheus scrape against docs/operations.md, and the metric names
 * of the chart's alert rules, of their promtool behaviour tests and of the dashboard
 * against that scrape.
 */
class ObservabilityIT {

	private static final String TOPIC = "observed";

	private static final int PARTITIONS = 3;

	private static final long RECORDS = 3_000;

	private static final Path ROOT = AlertRules.ROOT;

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, PARTITIONS);

	@Test
	void shouldShowLagWhilePausedDrainItAfterResumingAndExportEveryDocumentedMetric() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "observed");
		properties.put("sawmill.batch-size", 500);
		properties.put("sawmill.metrics.rtt-interval", "1s");
		properties.put("sawmill.metrics.summary.interval", "2s");
		properties.put("sawmill.metrics.slo-buckets", "200ms,1s");
		properties.put("management.endpoint.health.show-details", "always");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties, BatchCounter.class);
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			BatchCounter counter = app.getBean(BatchCounter.class);
			ConcurrentMessageListenerContainer<?, ?> container = app.getBean(ConcurrentMessageListenerContainer.class);
			int port = app.getBean(Environment.class).getRequiredProperty("local.server.port", Integer.class);

			// every partition is assigned to this instance and its lag read: 0 before
			// anything is produced
			await().atMost(Duration.ofSeconds(30))
				.until(() -> registry.find("sawmill.lag.records").gauges().size() == PARTITIONS);
			assertThat(lagRecords(registry)).isZero();

			container.pause();
			await().atMost(Duration.ofSeconds(10)).until(container::isContainerPaused);
			Kafka.produce(servers.kafka().bootstrapServers(), TOPIC, 0, RECORDS, SampleEvents::userId,
					SampleEvents::json);

			await().atMost(Duration.ofSeconds(20)).until(() -> lagRecords(registry) == RECORDS);
			await().atMost(Duration.ofSeconds(20)).until(() -> maxLagSeconds(registry) > 0);
			double seen = maxLagSeconds(registry);
			await().atMost(Duration.ofSeconds(20)).until(() -> maxLagSeconds(registry) > seen);
			assertThat(registry.get("sawmill.listener.paused").gauge().value()).isEqualTo(1);
			assertThat(Scrape.get(port, "/actuator/health")).contains("\"sawmillListeners\"")
				.contains("\"state\":\"paused\"")
				.contains("\"sawmillRedis\"");
			assertThat(counter.batches()).isZero();

			container.resume();
			await().atMost(Duration.ofSeconds(60)).until(() -> counter.records() == RECORDS);
			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
			await().atMost(Duration.ofSeconds(30)).until(() -> Kafka.committedOffsets(admin, "observed").equals(end));
			await().atMost(Duration.ofSeconds(20))
				.until(() -> lagRecords(registry) == 0 && maxLagSeconds(registry) == 0);
			assertThat(registry.get("sawmill.listener.paused").gauge().value()).isZero();

			long batches = counter.batches();
			assertThat(registry.get("sawmill.batch.duration").timer().count()).isEqualTo(batches);
			assertThat(registry.get("sawmill.batch.records").summary().count()).isEqualTo(batches);
			assertThat(registry.get("sawmill.batch.records").summary().totalAmount()).isEqualTo(RECORDS);
			assertThat(registry.get("sawmill.redis.pipeline.duration").timer().count()).isEqualTo(batches);
			assertThat(registry.get("sawmill.redis.commands").summary().totalAmount()).isEqualTo(2 * RECORDS);
			double outcomes = registry.find("sawmill.records")
				.counters()
				.stream()
				.filter(c -> !"retried".equals(c.getId().getTag("outcome")))
				.mapToDouble(c -> c.count())
				.sum();
			assertThat(outcomes).isEqualTo(RECORDS);
			assertThat(registry.get("sawmill.records").tag("outcome", "written").counter().count()).isEqualTo(RECORDS);
			assertThat(registry.get("sawmill.redis.ping.duration").timer().count()).isPositive();

			String scrape = Scrape.get(port, "/actuator/prometheus");
			Set<String> exported = Scrape.metricNames(scrape);
			assertThat(exported).as("every metric in docs/operations.md").containsAll(documentedMetrics());
			assertThat(exported).as("the dashboard's metrics").containsAll(dashboardMetrics());
			assertThat(exported).as("the alert rules' metrics").containsAll(alertMetrics());
			assertThat(scrape).as("SLO buckets of the batch timer").contains("le=\"0.2\"").contains("le=\"300.0\"");
			assertThat(exported).as("no per-command Lettuce meters").noneMatch(name -> name.startsWith("lettuce"));
		}
	}

	private static double lagRecords(MeterRegistry registry) {
		return registry.find("sawmill.lag.records").gauges().stream().mapToDouble(Gauge::value).sum();
	}

	private static double maxLagSeconds(MeterRegistry registry) {
		return registry.find("sawmill.lag.seconds").gauges().stream().mapToDouble(Gauge::value).max().orElse(-1);
	}

	/**
	 * The Prometheus names in the metric table of docs/operations.md; cgroup-only ones
	 * where a cgroup exists, share-mode ones never.
	 */
	private static Set<String> documentedMetrics() throws IOException {
		boolean cgroup = CgroupCpuStat.locate(CgroupCpuStat.DEFAULT_ROOT).isPresent();
		Set<String> names = new TreeSet<>();
		for (String line : Files.readAllLines(ROOT.resolve("docs/operations.md"))) {
			if (line.startsWith("| `sawmill_") && (cgroup || !line.contains("cgroup only"))
					&& !line.contains("Share mode only")) {
				Matcher matcher = Pattern.compile("`(sawmill_[a-z_]+)`").matcher(line);
				while (matcher.find()) {
					names.add(matcher.group(1));
				}
			}
		}
		assertThat(names).as("metric table of docs/operations.md").hasSizeGreaterThan(10);
		return names;
	}

	private static List<String> dashboardQueries() throws IOException {
		String json = Files.readString(ROOT.resolve("helm/sawmill/files/dashboard.json"));
		List<String> queries = new ArrayList<>();
		Matcher matcher = Pattern.compile("\"expr\": \"((?:[^\"\\\\]|\\\\.)*)\"").matcher(json);
		while (matcher.find()) {
			queries.add(matcher.group(1).replace("\\\"", "\""));
		}
		assertThat(queries).isNotEmpty();
		return queries;
	}

	/**
	 * The Sawmill metric names the dashboard's queries use. Every Sawmill metric name
	 * starts with {@code sawmill_} and no label or function name does, so a name pattern
	 * finds them; promtool parses the queries themselves (AlertRulesPromtoolTest).
	 */
	private static Set<String> dashboardMetrics() throws IOException {
		Set<String> names = new TreeSet<>();
		dashboardQueries().forEach(query -> names.addAll(sawmillNames(query)));
		return names;
	}

	/**
	 * The Sawmill metric names the chart's rules select, and those the promtool behaviour
	 * tests feed them.
	 */
	private static Set<String> alertMetrics() throws IOException {
		Set<String> names = new TreeSet<>();
		AlertRules.rules().forEach(rule -> names.addAll(sawmillNames((String) rule.get("expr"))));
		names.addAll(sawmillNames(Files.readString(AlertRules.TESTS)));
		assertThat(names).contains("sawmill_group_lag_records", "sawmill_lag_records",
				"sawmill_batch_duration_seconds_bucket");
		return names;
	}

	private static Set<String> sawmillNames(String text) {
		Set<String> names = new TreeSet<>();
		Matcher matcher = Pattern.compile("\\bsawmill_[a-z0-9_]+").matcher(text);
		while (matcher.find()) {
			// a share-mode service's only (sawmill.consumption.mode=share): this one
			// reads a consumer group
			if (!matcher.group().startsWith("sawmill_share_")) {
				names.add(matcher.group());
			}
		}
		return names;
	}

}
