package io.sawmill.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
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
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import com.marcnuri.helm.Helm;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.it.support.BatchCounter;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.PromQl;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.it.support.Scrape;
import io.sawmill.metrics.CgroupCpuStat;
import io.sawmill.testkit.SampleEvents;

/**
 * The metrics an operator relies on, read from the real service against a real broker and a real
 * redis-server: lag while the listener is paused and after it resumes, batch and outcome counts,
 * the Prometheus scrape against docs/operations.md, and the chart's alert rules and dashboard
 * against that scrape.
 */
class ObservabilityIT {

	private static final String TOPIC = "observed";
	private static final int PARTITIONS = 3;
	private static final long RECORDS = 3_000;
	private static final Path ROOT = repositoryRoot();

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

			// every partition is assigned to this instance and its lag read: 0 before anything is produced
			await().atMost(Duration.ofSeconds(30)).until(() -> registry.find("sawmill.lag.records").gauges().size() == PARTITIONS);
			assertThat(lagRecords(registry)).isZero();

			container.pause();
			await().atMost(Duration.ofSeconds(10)).until(container::isContainerPaused);
			Kafka.produce(servers.kafka().bootstrapServers(), TOPIC, 0, RECORDS, SampleEvents::userId, SampleEvents::json);

			await().atMost(Duration.ofSeconds(20)).until(() -> lagRecords(registry) == RECORDS);
			await().atMost(Duration.ofSeconds(20)).until(() -> maxLagSeconds(registry) > 0);
			double seen = maxLagSeconds(registry);
			await().atMost(Duration.ofSeconds(20)).until(() -> maxLagSeconds(registry) > seen);
			assertThat(registry.get("sawmill.listener.paused").gauge().value()).isEqualTo(1);
			assertThat(Scrape.get(port, "/actuator/health")).contains("\"sawmillListeners\"").contains("\"state\":\"paused\"")
				.contains("\"sawmillRedis\"");
			assertThat(counter.batches()).isZero();

			container.resume();
			await().atMost(Duration.ofSeconds(60)).until(() -> counter.records() == RECORDS);
			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
			await().atMost(Duration.ofSeconds(30)).until(() -> Kafka.committedOffsets(admin, "observed").equals(end));
			await().atMost(Duration.ofSeconds(20)).until(() -> lagRecords(registry) == 0 && maxLagSeconds(registry) == 0);
			assertThat(registry.get("sawmill.listener.paused").gauge().value()).isZero();

			long batches = counter.batches();
			assertThat(registry.get("sawmill.batch.duration").timer().count()).isEqualTo(batches);
			assertThat(registry.get("sawmill.batch.records").summary().count()).isEqualTo(batches);
			assertThat(registry.get("sawmill.batch.records").summary().totalAmount()).isEqualTo(RECORDS);
			assertThat(registry.get("sawmill.redis.pipeline.duration").timer().count()).isEqualTo(batches);
			assertThat(registry.get("sawmill.redis.commands").summary().totalAmount()).isEqualTo(2 * RECORDS);
			double outcomes = registry.find("sawmill.records").counters().stream()
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

	@Test
	void shouldRenderAlertRulesWhoseExpressionsAreValidPromQlWithASummaryAndRunbookAnchorEach() throws IOException {
		List<Map<String, Object>> rules = renderedRules();

		assertThat(rules).extracting(r -> r.get("alert")).containsExactlyInAnyOrder("SawmillLagHigh", "SawmillLagGrowing",
				"SawmillTimeLagHigh", "SawmillBatchSlow", "SawmillRedisRttHigh", "SawmillCpuThrottled",
				"SawmillConsumerAbsent");
		String operations = Files.readString(ROOT.resolve("docs/operations.md"));
		for (Map<String, Object> rule : rules) {
			String alert = (String) rule.get("alert");
			assertThat(PromQl.parse((String) rule.get("expr"))).as(alert).isNotEmpty();
			@SuppressWarnings("unchecked")
			Map<String, Object> annotations = (Map<String, Object>) rule.get("annotations");
			assertThat((String) annotations.get("summary")).as(alert).isNotBlank();
			String anchor = alert.toLowerCase();
			assertThat((String) annotations.get("runbook_url")).endsWith("docs/operations.md#" + anchor);
			assertThat(operations).as("docs/operations.md has a section for " + alert).contains("### " + alert);
		}
		assertThat(rule(rules, "SawmillLagHigh").get("expr")).asString().endsWith("> 1000");
		assertThat(rule(rules, "SawmillLagHigh").get("for")).isEqualTo("1m");
		assertThat(rule(rules, "SawmillRedisRttHigh").get("expr")).asString().endsWith("> 0.001");
	}

	@Test
	void shouldParseTheDashboardQueriesAsPromQl() throws IOException {
		for (String query : dashboardQueries()) {
			String promql = query.replace("$__rate_interval", "5m").replace("$group", ".*");
			assertThat(PromQl.parse(promql)).as(query).isNotEmpty();
		}
	}

	@Test
	void shouldRejectInvalidPromQlSoThatTheRuleCheckMeansSomething() {
		for (String invalid : List.of("rate(sawmill_records_total)", "sum(rate(x[5m])", "x{group=g}", "x > ",
				"histogram_quantile(0.99)", "sum by (le (x)", "nosuchfunction(x)", "x[5m] > 1", "1 > 2",
				"x{a=\"b\"}[5]", "avg_over_time(x)", "sum(x) by le")) {
			assertThatIllegalArgumentException().as(invalid).isThrownBy(() -> PromQl.parse(invalid));
		}
		assertThat(PromQl.parse("sum by (topic) (deriv(a{g=\"x\"}[15m])) > 0 and on (topic) sum by (topic) (b) > 1"))
			.containsExactly("a", "b");
		assertThat(PromQl.parse("vector(1 > bool 2) or vector(time())")).isEmpty();
	}

	private static Map<String, Object> rule(List<Map<String, Object>> rules, String alert) {
		return rules.stream().filter(r -> alert.equals(r.get("alert"))).findFirst().orElseThrow();
	}

	private static double lagRecords(MeterRegistry registry) {
		return registry.find("sawmill.lag.records").gauges().stream().mapToDouble(Gauge::value).sum();
	}

	private static double maxLagSeconds(MeterRegistry registry) {
		return registry.find("sawmill.lag.seconds").gauges().stream().mapToDouble(Gauge::value).max().orElse(-1);
	}

	/** The Prometheus names in the metric table of docs/operations.md; cgroup-only ones where a cgroup exists. */
	private static Set<String> documentedMetrics() throws IOException {
		boolean cgroup = CgroupCpuStat.locate(CgroupCpuStat.DEFAULT_ROOT).isPresent();
		Set<String> names = new TreeSet<>();
		for (String line : Files.readAllLines(ROOT.resolve("docs/operations.md"))) {
			if (line.startsWith("| `sawmill_") && (cgroup || !line.contains("cgroup only"))) {
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

	private static Set<String> dashboardMetrics() throws IOException {
		Set<String> names = new TreeSet<>();
		for (String query : dashboardQueries()) {
			names.addAll(PromQl.parse(query.replace("$__rate_interval", "5m").replace("$group", ".*")));
		}
		return names;
	}

	private static Set<String> alertMetrics() {
		Set<String> names = new TreeSet<>();
		renderedRules().forEach(rule -> names.addAll(PromQl.parse((String) rule.get("expr"))));
		return names;
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> renderedRules() {
		Path chart = ROOT.resolve("helm/sawmill");
		String rendered = new Helm(chart).template()
			.withName("sawmill")
			.withKubeVersion("v1.30.0")
			.withValuesFile(chart.resolve("ci/keda-values.yaml"))
			.call();
		List<Map<String, Object>> rules = new ArrayList<>();
		for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(rendered)) {
			if (document instanceof Map<?, ?> object && "PrometheusRule".equals(object.get("kind"))) {
				Map<String, Object> spec = (Map<String, Object>) object.get("spec");
				for (Object group : (List<Object>) spec.get("groups")) {
					((List<Object>) ((Map<String, Object>) group).get("rules")).forEach(r -> rules.add((Map<String, Object>) r));
				}
			}
		}
		assertThat(rules).isNotEmpty();
		return rules;
	}

	private static Path repositoryRoot() {
		for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (Files.isRegularFile(dir.resolve("helm/sawmill/Chart.yaml"))) {
				return dir;
			}
		}
		throw new IllegalStateException("repository root not found");
	}
}
