package io.sawmill.bench.startup;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@link StartupTime}.
 *
 * @param runs starts per variant
 * @param app sawmill-app's build directory, holding the packaged jar
 * @param java the {@code java} launcher the service runs on
 * @param variants the ways of starting it, alternating run by run: by default jar, cds and image
 * @param logs where the children's output goes
 */
record StartupOptions(int runs, Path app, Path java, List<LaunchVariant> variants, Path logs) {

	static StartupOptions parse(String... args) {
		int runs = 5;
		Path app = Path.of("sawmill-app", "target");
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		List<LaunchVariant> variants = new ArrayList<>();
		Path logs = Path.of("sawmill-bench", "target", "startup");
		for (int i = 0; i < args.length; i++) {
			String value = i + 1 < args.length ? args[i + 1] : null;
			switch (args[i]) {
				case "--runs" -> runs = Integer.parseInt(required(args[i], value));
				case "--app" -> app = Path.of(required(args[i], value));
				case "--java" -> java = Path.of(required(args[i], value));
				case "--variant" -> variants.add(LaunchVariant.parse(required(args[i], value)));
				case "--logs" -> logs = Path.of(required(args[i], value));
				default -> throw new IllegalArgumentException("unknown option " + args[i]
						+ "; known: --runs N, --app DIR, --java PATH, --variant NAME=FLAGS (repeatable), --logs DIR");
			}
			i++;
		}
		if (runs < 1) {
			throw new IllegalArgumentException("--runs must be at least 1, but was " + runs);
		}
		if (variants.isEmpty()) {
			variants.addAll(List.of(LaunchVariant.JAR, LaunchVariant.CDS, LaunchVariant.IMAGE));
		}
		return new StartupOptions(runs, app.toAbsolutePath(), java, List.copyOf(variants), logs.toAbsolutePath());
	}

	private static String required(String option, String value) {
		if (value == null) {
			throw new IllegalArgumentException(option + " needs a value");
		}
		return value;
	}
}
