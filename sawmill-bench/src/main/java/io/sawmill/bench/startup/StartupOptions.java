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
package io.sawmill.bench.startup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@link StartupTime}.
 *
 * @param runs starts per variant
 * @param app sawmill-app's build directory, holding the packaged jar
 * @param java the {@code java} launcher the service runs on
 * @param variants the ways of starting it, alternating run by run: by default
 * {@linkplain LaunchVariant#defaults jar, cds, image, aot and minimal where the build and
 * the JVM allow it}
 * @param logs where the children's output goes
 * @param records how many records the topic holds: each start is also timed until it has
 * committed them all, which with a large backlog shows how fast a new pod's consumer gets
 * up to speed
 * @param minimal the minimal Spring Kafka application's jar
 */
record StartupOptions(int runs, Path app, Path java, List<LaunchVariant> variants, Path logs, int records,
		Path minimal) {

	static StartupOptions parse(String... args) {
		int runs = 5;
		Path app = Path.of("sawmill-app", "target");
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		List<String> variantSpecs = new ArrayList<>();
		Path minimal = Path.of("sawmill-bench", "minimal-app", "target", "minimal-app.jar");
		Path logs = Path.of("sawmill-bench", "target", "startup");
		int records = 3_000;
		for (int i = 0; i < args.length; i++) {
			String value = i + 1 < args.length ? args[i + 1] : null;
			switch (args[i]) {
				case "--runs" -> runs = Integer.parseInt(required(args[i], value));
				case "--app" -> app = Path.of(required(args[i], value));
				case "--java" -> java = Path.of(required(args[i], value));
				case "--variant" -> variantSpecs.add(required(args[i], value));
				case "--minimal" -> minimal = Path.of(required(args[i], value));
				case "--logs" -> logs = Path.of(required(args[i], value));
				case "--records" -> records = Integer.parseInt(required(args[i], value));
				default -> throw new IllegalArgumentException("unknown option " + args[i]
						+ "; known: --runs N, --app DIR, --java PATH, --variant NAME=FLAGS or NAME (repeatable), --logs DIR, --records N, --minimal JAR");
			}
			i++;
		}
		if (runs < 1) {
			throw new IllegalArgumentException("--runs must be at least 1, but was " + runs);
		}
		if (records < 1) {
			throw new IllegalArgumentException("--records must be at least 1, but was " + records);
		}
		List<LaunchVariant> variants = new ArrayList<>();
		List<LaunchVariant> named = List.of(LaunchVariant.JAR, LaunchVariant.CDS, LaunchVariant.IMAGE,
				LaunchVariant.AOT, LaunchVariant.minimal(minimal));
		variantSpecs.forEach(spec -> variants.add(LaunchVariant.parse(spec, named)));
		if (variants.isEmpty()) {
			variants.addAll(LaunchVariant.defaults(app, minimal, featureVersion(java)));
		}
		return new StartupOptions(runs, app.toAbsolutePath(), java, List.copyOf(variants), logs.toAbsolutePath(),
				records, minimal.toAbsolutePath());
	}

	/**
	 * The feature release of the JVM at {@code java} ({@code <home>/bin/java}, links
	 * followed), read from {@code JAVA_VERSION} in its home's {@code release} file; 0
	 * when that cannot be read.
	 */
	static int featureVersion(Path java) {
		try {
			Path release = java.toRealPath().getParent().getParent().resolve("release");
			for (String line : Files.readAllLines(release)) {
				if (line.startsWith("JAVA_VERSION=")) {
					return Runtime.Version.parse(line.substring("JAVA_VERSION=".length()).replace("\"", "")).feature();
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// not a JDK's layout, or a version this JVM cannot parse (1.8.0_…): not known
		}
		return 0;
	}

	private static String required(String option, String value) {
		if (value == null) {
			throw new IllegalArgumentException(option + " needs a value");
		}
		return value;
	}
}
