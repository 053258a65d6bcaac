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

import static io.sawmill.it.helm.SawmillChart.render;
import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.LintResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

class ChartLintTest {

	static Stream<String> scenarios() throws IOException {
		try (Stream<Path> files = Files.list(SawmillChart.CI_DIR)) {
			return files.map(f -> f.getFileName().toString())
				.filter(n -> n.endsWith("-values.yaml"))
				.map(n -> n.substring(0, n.length() - "-values.yaml".length()))
				.sorted()
				.toList()
				.stream();
		}
	}

	@Test
	void shouldPassStrictLint() {
		LintResult result = SawmillChart.helm().lint().strict().call();

		assertThat(result.isFailed()).as("lint messages: %s", result.getMessages()).isFalse();
		assertThat(result.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
	}

	@Test
	void shouldShipEveryScenarioTheIssueAsksFor() throws IOException {
		assertThat(scenarios()).contains("defaults", "zone-aware", "rack-aware", "keda", "guaranteed-qos",
				"static-membership");
	}

	@ParameterizedTest
	@MethodSource("scenarios")
	void shouldRenderEveryScenarioIntoNamedKubernetesObjects(String scenario) {
		SawmillChart.Manifests manifests = render(scenario);

		assertThat(manifests.objects()).isNotEmpty().allSatisfy(o -> {
			assertThat(o).containsKeys("apiVersion", "kind", "metadata");
			assertThat(SawmillChart.at(o, "metadata.name")).asString().isNotBlank().hasSizeLessThanOrEqualTo(63);
		});
		assertThat(manifests.workload()).isNotNull();
		assertThat(manifests.has("PodDisruptionBudget")).isTrue();
	}

	@ParameterizedTest
	@MethodSource("scenarios")
	void shouldNeverRenderASecretNorSecretLikeLiterals(String scenario) {
		SawmillChart.Manifests manifests = render(scenario);

		assertThat(manifests.has("Secret")).isFalse();
		assertThat(manifests.env()).allSatisfy((name, var) -> {
			if (name.contains("PASSWORD") || name.contains("JAAS")) {
				assertThat(var).doesNotContainKey("value").containsKey("valueFrom");
			}
		});
	}

	@Test
	void shouldSelectPodsWithTheLabelsTheyCarry() {
		SawmillChart.Manifests manifests = render("defaults", Map.of());
		Map<String, Object> selector = SawmillChart.map(manifests.workload(), "spec.selector.matchLabels");
		Map<String, Object> podLabels = SawmillChart.map(manifests.workload(), "spec.template.metadata.labels");

		assertThat(podLabels).containsAllEntriesOf(selector);
		assertThat(SawmillChart.map(manifests.one("PodDisruptionBudget"), "spec.selector.matchLabels"))
			.isEqualTo(selector);
		assertThat(SawmillChart.map(manifests.one("Service"), "spec.selector")).isEqualTo(selector);
	}

	@Test
	void shouldCommentEveryKeyOfValuesYaml() throws IOException {
		List<String> lines = Files.readAllLines(SawmillChart.CHART_DIR.resolve("values.yaml"));
		Pattern key = Pattern.compile("^\\s*[A-Za-z_][\\w.-]*:.*");
		List<String> uncommented = new ArrayList<>();
		String previous = "";
		for (String line : lines) {
			if (key.matcher(line).matches() && !previous.startsWith("#")) {
				uncommented.add(line.strip());
			}
			if (!line.isBlank()) {
				previous = line.strip();
			}
		}

		assertThat(uncommented).as("values.yaml keys without a comment").isEmpty();
	}

	@Test
	void shouldRejectUnknownTopLevelAndNestedKeysInTheSchema() throws IOException {
		Map<String, Object> schema = SawmillChart.asMap(new Yaml(new SafeConstructor(new LoaderOptions()))
			.load(Files.readString(SawmillChart.CHART_DIR.resolve("values.schema.json"))));

		assertThat(schema).containsEntry("additionalProperties", false);
		for (String section : List.of("sawmill", "kafka", "redis", "resources", "zoneAware", "rackAwareness",
				"autoscaling", "metrics")) {
			assertThat(SawmillChart.at(schema, "properties." + section + ".additionalProperties")).as(section)
				.isEqualTo(false);
		}
	}

}
