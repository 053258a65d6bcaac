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
package io.sawmill.it.support;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;

/**
 * The alert rules exactly as the chart ships them: {@code helm/sawmill} rendered
 * in-process (helm-java) with the rules enabled ({@code ci/keda-values.yaml}), the
 * {@code PrometheusRule}'s groups written as a Prometheus rule file. Also finds
 * Prometheus' own tools on the PATH.
 */
public final class AlertRules {

	public static final Path ROOT = repositoryRoot();

	public static final Path CHART = ROOT.resolve("helm/sawmill");

	/**
	 * The {@code promtool test rules} file; it loads the rules from
	 * {@code sawmill.rules.yaml} beside it.
	 */
	public static final Path TESTS = CHART.resolve("files/prometheus-rules.tests.yaml");

	public static final String RULES_FILE_NAME = "sawmill.rules.yaml";

	private AlertRules() {
	}

	/**
	 * The rule groups the chart renders, with {@code --set} overrides (e.g. a threshold).
	 */
	@SuppressWarnings("unchecked")
	public static List<Map<String, Object>> groups(Map<String, Object> sets) {
		TemplateCommand template = new Helm(CHART).template()
			.withName("sawmill")
			.withKubeVersion("v1.30.0")
			.withValuesFile(CHART.resolve("ci/keda-values.yaml"));
		for (Map.Entry<String, Object> set : sets.entrySet()) {
			template = template.set(set.getKey(), set.getValue());
		}
		String rendered = template.call();
		for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(rendered)) {
			if (document instanceof Map<?, ?> object && "PrometheusRule".equals(object.get("kind"))) {
				return (List<Map<String, Object>>) ((Map<String, Object>) object.get("spec")).get("groups");
			}
		}
		throw new IllegalStateException("the chart rendered no PrometheusRule");
	}

	/** Every rule of every group the chart renders with its defaults. */
	@SuppressWarnings("unchecked")
	public static List<Map<String, Object>> rules() {
		List<Map<String, Object>> rules = new ArrayList<>();
		for (Map<String, Object> group : groups(Map.of())) {
			rules.addAll((List<Map<String, Object>>) group.get("rules"));
		}
		return rules;
	}

	/** Writes the groups as a rule file, each rule passed through {@code edit} first. */
	@SuppressWarnings("unchecked")
	public static Path write(List<Map<String, Object>> groups, UnaryOperator<Map<String, Object>> edit, Path file)
			throws IOException {
		List<Map<String, Object>> edited = new ArrayList<>();
		for (Map<String, Object> group : groups) {
			Map<String, Object> copy = new LinkedHashMap<>(group);
			copy.put("rules",
					((List<Map<String, Object>>) group.get("rules")).stream()
						.map(rule -> edit.apply(new LinkedHashMap<>(rule)))
						.toList());
			edited.add(copy);
		}
		DumperOptions options = new DumperOptions();
		options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
		Files.writeString(file, new Yaml(options).dump(Map.of("groups", edited)));
		return file;
	}

	/**
	 * The path of a Prometheus tool (Debian's {@code prometheus} package, which
	 * {@code .ci/run} installs). Without it the calling test is skipped, except under CI,
	 * where it fails.
	 */
	public static Path requireOnPath(String command) {
		for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			Path candidate = Path.of(dir, command);
			if (Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		if (System.getenv("CI") != null) {
			throw new AssertionError(command + " is not installed: apt-get install -y prometheus");
		}
		assumeTrue(false, command + " not on PATH (apt-get install -y prometheus)");
		throw new IllegalStateException("unreachable");
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
