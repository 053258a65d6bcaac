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

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.InstallCommand;
import com.marcnuri.helm.TemplateCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Renders {@code helm/sawmill} in-process with helm-java (no cluster, no helm on PATH)
 * and parses the result into plain maps, one per Kubernetes object. Renders are cached:
 * the chart does not change during a test run.
 */
final class SawmillChart {

	/**
	 * The chart declares kubeVersion >= 1.25; helm's library default (v1.20) would be
	 * refused.
	 */
	static final String KUBE_VERSION = "v1.30.0";
	static final String RELEASE = "sawmill";
	static final String NAMESPACE = "apps";

	static final Path CHART_DIR = locateChart();
	static final Path CI_DIR = CHART_DIR.resolve("ci");

	private static final Map<String, Manifests> CACHE = new ConcurrentHashMap<>();

	private SawmillChart() {
	}

	static Helm helm() {
		return new Helm(CHART_DIR);
	}

	/**
	 * Renders the chart with a ci/ scenario ({@code "keda"} reads ci/keda-values.yaml)
	 * and --set overrides.
	 */
	static Manifests render(String scenario, Map<String, Object> sets) {
		return CACHE.computeIfAbsent(scenario + sets, k -> parse(template(scenario, sets).call()));
	}

	static Manifests render(String scenario) {
		return render(scenario, Map.of());
	}

	static TemplateCommand template(String scenario, Map<String, Object> sets) {
		TemplateCommand command = helm().template()
			.withName(RELEASE)
			.withNamespace(NAMESPACE)
			.withKubeVersion(KUBE_VERSION)
			.withValuesFile(scenarioFile(scenario));
		for (Map.Entry<String, Object> set : sets.entrySet()) {
			command = command.set(set.getKey(), set.getValue());
		}
		return command;
	}

	/**
	 * The text helm prints after an install (status and NOTES.txt), from a client-only
	 * dry run.
	 */
	static String installNotes(String scenario, Map<String, Object> sets) {
		InstallCommand command = helm().install()
			.withName(RELEASE)
			.withNamespace(NAMESPACE)
			.withKubeVersion(KUBE_VERSION)
			.withValuesFile(scenarioFile(scenario))
			.clientOnly()
			.dryRun();
		for (Map.Entry<String, Object> set : sets.entrySet()) {
			command = command.set(set.getKey(), set.getValue());
		}
		return command.call().getOutput();
	}

	static Path scenarioFile(String scenario) {
		Path file = CI_DIR.resolve(scenario + "-values.yaml");
		if (!Files.isRegularFile(file)) {
			throw new IllegalArgumentException("no scenario " + file);
		}
		return file;
	}

	@SuppressWarnings("unchecked")
	static Manifests parse(String rendered) {
		Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
		List<Map<String, Object>> objects = new ArrayList<>();
		for (Object doc : yaml.loadAll(rendered)) {
			if (doc != null) {
				objects.add((Map<String, Object>) doc);
			}
		}
		return new Manifests(objects);
	}

	private static Path locateChart() {
		Path cwd = Paths.get("").toAbsolutePath();
		for (Path dir = cwd; dir != null; dir = dir.getParent()) {
			Path chart = dir.resolve("helm/sawmill/Chart.yaml");
			if (Files.isRegularFile(chart)) {
				return chart.getParent();
			}
		}
		throw new IllegalStateException("helm/sawmill/Chart.yaml not found above " + cwd);
	}

	/**
	 * The rendered objects of one release, with navigation by kind and by dotted path.
	 */
	static final class Manifests {

		private final List<Map<String, Object>> objects;

		Manifests(List<Map<String, Object>> objects) {
			this.objects = List.copyOf(objects);
		}

		List<Map<String, Object>> objects() {
			return objects;
		}

		List<Map<String, Object>> all(String kind) {
			return objects.stream().filter(o -> kind.equals(o.get("kind"))).toList();
		}

		boolean has(String kind) {
			return !all(kind).isEmpty();
		}

		Map<String, Object> one(String kind) {
			List<Map<String, Object>> found = all(kind);
			if (found.size() != 1) {
				throw new AssertionError("expected one " + kind + " but found " + found.size());
			}
			return found.get(0);
		}

		/** The Deployment or, in static-membership mode, the StatefulSet. */
		Map<String, Object> workload() {
			return has("StatefulSet") ? one("StatefulSet") : one("Deployment");
		}

		Map<String, Object> podSpec() {
			return map(workload(), "spec.template.spec");
		}

		Map<String, Object> container(String name) {
			return list(podSpec(), "containers").stream()
				.map(SawmillChart::asMap)
				.filter(c -> name.equals(c.get("name")))
				.findFirst()
				.orElseThrow(() -> new AssertionError("no container " + name));
		}

		Map<String, Object> sawmill() {
			return container("sawmill");
		}

		/** The sawmill container's env vars by name (each an EnvVar object). */
		Map<String, Map<String, Object>> env() {
			Map<String, Map<String, Object>> env = new LinkedHashMap<>();
			for (Object e : list(sawmill(), "env")) {
				Map<String, Object> var = asMap(e);
				env.put((String) var.get("name"), var);
			}
			return env;
		}

		String envValue(String name) {
			Map<String, Object> var = env().get(name);
			return var == null ? null : (String) var.get("value");
		}

	}

	@SuppressWarnings("unchecked")
	static Map<String, Object> asMap(Object o) {
		return (Map<String, Object>) Objects.requireNonNull(o, "null where a map was expected");
	}

	/** Follows a dotted path of map keys; null when any step is missing. */
	static Object at(Map<String, Object> root, String path) {
		Object current = root;
		for (String key : path.split("\\.")) {
			if (!(current instanceof Map<?, ?> m)) {
				return null;
			}
			current = m.get(key);
		}
		return current;
	}

	static Map<String, Object> map(Map<String, Object> root, String path) {
		Object found = at(root, path);
		if (!(found instanceof Map<?, ?>)) {
			throw new AssertionError("no map at " + path + " in " + root.get("kind"));
		}
		return asMap(found);
	}

	@SuppressWarnings("unchecked")
	static List<Object> list(Map<String, Object> root, String path) {
		Object found = at(root, path);
		if (!(found instanceof List<?>)) {
			throw new AssertionError("no list at " + path + " in " + root.get("kind"));
		}
		return (List<Object>) found;
	}

}
