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
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * One way of starting the packaged service: {@code java <arguments> <properties>}, run in
 * {@code directory}. When the arguments name no {@code -jar} or {@code -cp}, {@code -jar
 * sawmill-app-*-exec.jar} is appended; when the first is a path ending in
 * {@code bin/java}, that JVM runs instead of {@code --java}'s. {@code {app}} stands for
 * sawmill-app's build directory.
 *
 * @param name as printed
 * @param arguments the JVM's arguments before the service's properties
 * @param directory the working directory, {@code null} for this one
 */
record LaunchVariant(String name, List<String> arguments, String directory) {

	/** The packaged jar as built, with no JVM flags. */
	static final LaunchVariant JAR = new LaunchVariant("jar", List.of(), null);

	/**
	 * The start-up layout sawmill-app's build writes: the extracted jar and its CDS
	 * archive.
	 */
	static final LaunchVariant CDS = new LaunchVariant("cds",
			List.of("-XX:SharedArchiveFile=sawmill-app.jsa", "-jar", "sawmill-app.jar"), "{app}/sawmill-app");

	/**
	 * The same layout started with the JDK AOT cache a build on Java 25 or later writes
	 * next to the CDS archive: classes loaded and linked, and method profiles, from the
	 * build's training run.
	 */
	static final LaunchVariant AOT = new LaunchVariant("aot",
			List.of("-XX:AOTCache=sawmill-app.aot", "-jar", "sawmill-app.jar"), "{app}/sawmill-app");

	/**
	 * The container image's entry point: Jib's flags and its class path of plain jars (no
	 * nested-jar launcher), with the processor count the chart sets for a one-CPU
	 * request.
	 */
	static final LaunchVariant IMAGE = new LaunchVariant("image",
			List.of("-XX:ActiveProcessorCount=1", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-cp",
					"sawmill-app.jar", "io.sawmill.app.SawmillApplication"),
			"{app}/sawmill-app");

	/**
	 * jar, cds and image; and aot when the build wrote {@code sawmill-app.aot} and the
	 * JVM is of Java 25 or later (Java 17 does not start with {@code -XX:AOTCache}).
	 * @param javaFeature the feature release of the JVM the variants run on, 0 when not
	 * known
	 */
	static List<LaunchVariant> defaults(Path app, int javaFeature) {
		List<LaunchVariant> variants = new ArrayList<>(List.of(JAR, CDS, IMAGE));
		if (javaFeature >= 25 && Files.isRegularFile(AOT.directory(app).resolve("sawmill-app.aot"))) {
			variants.add(AOT);
		}
		return List.copyOf(variants);
	}

	/**
	 * {@code name=arguments…}, e.g. {@code c1=-XX:TieredStopAtLevel=1}, run in this
	 * directory.
	 */
	static LaunchVariant parse(String spec) {
		int equals = spec.indexOf('=');
		if (equals <= 0) {
			throw new IllegalArgumentException("a variant is name=jvm-arguments, but was " + spec);
		}
		String arguments = spec.substring(equals + 1).trim();
		return new LaunchVariant(spec.substring(0, equals),
				arguments.isEmpty() ? List.of() : Arrays.asList(arguments.split("\\s+")), null);
	}

	List<String> command(Path java, Path app, List<String> properties) {
		List<String> command = new ArrayList<>();
		if (arguments.isEmpty() || !arguments.get(0).endsWith("bin/java")) {
			command.add(java.toString());
		}
		arguments.forEach(argument -> command.add(argument.replace("{app}", app.toString())));
		if (!arguments.contains("-jar") && !arguments.contains("-cp")) {
			command.add("-jar");
			command.add(execJar(app).toString());
		}
		command.addAll(properties);
		return command;
	}

	/** The working directory, or {@code null} to inherit this one. */
	Path directory(Path app) {
		return directory == null ? null : Path.of(directory.replace("{app}", app.toString()));
	}

	String describe() {
		return (directory != null ? "(in " + directory + ") " : "") + "java " + String.join(" ", arguments)
				+ (arguments.contains("-jar") || arguments.contains("-cp") ? "" : " -jar sawmill-app-*-exec.jar");
	}

	static Path execJar(Path app) {
		try (Stream<Path> files = Files.list(app)) {
			return files.filter(file -> file.getFileName().toString().matches("sawmill-app-.*-exec\\.jar"))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("no sawmill-app-*-exec.jar in " + app
						+ ": build it first (./mvnw -pl sawmill-app -am package -DskipTests)"));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot list " + app, ex);
		}
	}
}
