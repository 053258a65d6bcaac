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

import static org.assertj.core.api.Assertions.assertThat;

import io.sawmill.it.support.AlertRules;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The alert rules the chart renders, checked by Prometheus' own {@code promtool}: the
 * file format and every expression ({@code check rules}), and each alert's behaviour
 * ({@code test rules} with {@code files/prometheus-rules.tests.yaml}: input series, and
 * the alerts expected at given times). Every alert must have a case where it fires, one
 * where it stays quiet and one where it resolves. The dashboard's queries are parsed by
 * promtool too. promtool comes with Debian's {@code prometheus} package, which
 * {@code .ci/run} installs; without it these tests are skipped, except under CI.
 */
class AlertRulesPromtoolTest {

	private static final UnaryOperator<Map<String, Object>> AS_RENDERED = UnaryOperator.identity();

	@Test
	void shouldPassPromtoolCheckRules(@TempDir Path dir) throws Exception {
		Path rules = AlertRules.write(AlertRules.groups(Map.of()), AS_RENDERED,
				dir.resolve(AlertRules.RULES_FILE_NAME));

		String output = promtool(0, "check", "rules", rules.toString());

		assertThat(output).contains("SUCCESS").doesNotContain("FAILED");
	}

	@Test
	void shouldPassTheBehaviourTestsOfEveryAlertWithPromtoolTestRules(@TempDir Path dir) throws Exception {
		Path tests = behaviourTests(dir, Map.of());

		String output = promtool(0, "test", "rules", tests.toString());

		assertThat(output).contains("SUCCESS").doesNotContain("FAILED");
	}

	@Test
	void shouldFailTheBehaviourTestsWhenTheChartRendersAnotherThreshold(@TempDir Path dir) throws Exception {
		Path tests = behaviourTests(dir, Map.of("metrics.prometheusRule.lag.threshold", 10000));

		String output = promtool(1, "test", "rules", tests.toString());

		assertThat(output).contains("FAILED").contains("alertname: SawmillLagHigh");
	}

	@Test
	@SuppressWarnings("unchecked")
	void shouldTestEveryAlertFiringStayingQuietAndResolving() throws IOException {
		Map<String, List<String>> missing = new TreeMap<>();
		Map<String, Object> file = new Yaml(new SafeConstructor(new LoaderOptions()))
			.load(Files.readString(AlertRules.TESTS));
		Map<String, boolean[]> seen = new HashMap<>();
		for (Map<String, Object> test : (List<Map<String, Object>>) file.get("tests")) {
			Map<String, Boolean> firedBefore = new HashMap<>();
			List<Map<String, Object>> cases = new ArrayList<>((List<Map<String, Object>>) test.get("alert_rule_test"));
			cases.sort(
					(a, b) -> Long.compare(seconds((String) a.get("eval_time")), seconds((String) b.get("eval_time"))));
			for (Map<String, Object> testCase : cases) {
				String alert = (String) testCase.get("alertname");
				boolean fires = !((List<Object>) testCase.get("exp_alerts")).isEmpty();
				boolean[] kinds = seen.computeIfAbsent(alert, a -> new boolean[3]);
				boolean fired = firedBefore.getOrDefault(alert, false);
				kinds[fires ? 0 : fired ? 2 : 1] = true;
				firedBefore.put(alert, fired || fires);
			}
		}
		for (Map<String, Object> rule : AlertRules.rules()) {
			String alert = (String) rule.get("alert");
			boolean[] kinds = seen.getOrDefault(alert, new boolean[3]);
			List<String> untested = new ArrayList<>();
			String[] names = { "fires", "stays quiet", "resolves" };
			for (int i = 0; i < 3; i++) {
				if (!kinds[i]) {
					untested.add(names[i]);
				}
			}
			if (!untested.isEmpty()) {
				missing.put(alert, untested);
			}
		}
		assertThat(missing).as("alerts without a promtool case in " + AlertRules.TESTS.getFileName()).isEmpty();
	}

	@Test
	@SuppressWarnings("unchecked")
	void shouldGiveEveryAlertASummaryAndARunbookSectionInOperationsMd() throws IOException {
		String operations = Files.readString(AlertRules.ROOT.resolve("docs/operations.md"));
		List<Map<String, Object>> rules = AlertRules.rules();

		assertThat(rules).extracting(r -> r.get("alert"))
			.contains("SawmillLagHigh", "SawmillLagUnknown", "SawmillLagGrowing", "SawmillTimeLagHigh",
					"SawmillBatchSlow", "SawmillRedisRttHigh", "SawmillCpuThrottled", "SawmillConsumerAbsent",
					"SawmillListenerStalled");
		for (Map<String, Object> rule : rules) {
			String alert = (String) rule.get("alert");
			Map<String, Object> annotations = (Map<String, Object>) rule.get("annotations");
			assertThat((String) annotations.get("summary")).as(alert).isNotBlank();
			assertThat((String) annotations.get("runbook_url")).endsWith("docs/operations.md#" + alert.toLowerCase());
			assertThat(operations).as("docs/operations.md has a section for " + alert).contains("### " + alert);
		}
	}

	@Test
	void shouldParseEveryDashboardQueryWithPromtool(@TempDir Path dir) throws Exception {
		String json = Files.readString(AlertRules.CHART.resolve("files/dashboard.json"));
		Matcher matcher = Pattern.compile("\"expr\": \"((?:[^\"\\\\]|\\\\.)*)\"").matcher(json);
		List<Map<String, Object>> records = new ArrayList<>();
		while (matcher.find()) {
			String query = matcher.group(1)
				.replace("\\\"", "\"")
				.replace("$__rate_interval", "5m")
				.replace("$group", ".*");
			records.add(Map.of("record", "dashboard:query_" + records.size(), "expr", query));
		}
		assertThat(records).isNotEmpty();
		Path rules = AlertRules.write(List.of(Map.of("name", "dashboard", "rules", records)), AS_RENDERED,
				dir.resolve("dashboard.rules.yaml"));

		String output = promtool(0, "check", "rules", rules.toString());

		assertThat(output).contains("SUCCESS: " + records.size() + " rules found");
	}

	/**
	 * The tests file beside the chart's rules rendered with {@code sets}, as promtool
	 * expects them.
	 */
	private static Path behaviourTests(Path dir, Map<String, Object> sets) throws IOException {
		AlertRules.write(AlertRules.groups(sets), AS_RENDERED, dir.resolve(AlertRules.RULES_FILE_NAME));
		return Files.copy(AlertRules.TESTS, dir.resolve(AlertRules.TESTS.getFileName()));
	}

	private static String promtool(int expectedExit, String... args) throws Exception {
		List<String> command = new ArrayList<>(List.of(AlertRules.requireOnPath("promtool").toString()));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as(output).isEqualTo(expectedExit);
		return output;
	}

	private static long seconds(String duration) {
		long total = 0;
		Matcher part = Pattern.compile("(\\d+)([hms])").matcher(duration);
		while (part.find()) {
			total += Long.parseLong(part.group(1)) * switch (part.group(2)) {
				case "h" -> 3600;
				case "m" -> 60;
				default -> 1;
			};
		}
		return total;
	}

}
