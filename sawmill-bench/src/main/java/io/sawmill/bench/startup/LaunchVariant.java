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
	 * The container image's entry point, in its working directory, from the image
	 * sawmill-app's build writes, unpacked ({@link ContainerImage}): its own runtime and
	 * archive, with the processor count the chart sets for a one-CPU request. Resolved
	 * once the image is unpacked ({@link #resolve}).
	 */
	static final LaunchVariant IMAGE = new LaunchVariant("image", List.of(), "{image}");

	/**
	 * The chart's {@code JAVA_TOOL_OPTIONS} for a pod that requests one CPU.
	 */
	static final List<String> CHART_JVM_OPTIONS = List.of("-XX:ActiveProcessorCount=1");

	/**
	 * The floor: a minimal Spring Boot application with one Spring Kafka batch listener
	 * writing to Redis (sawmill-bench/minimal-app), {@code java -jar}.
	 */
	static LaunchVariant minimal(Path jar) {
		return new LaunchVariant("minimal", List.of("-jar", jar.toAbsolutePath().toString()), null);
	}

	/**
	 * jar, cds, image when the build wrote the image, aot when it wrote
	 * {@code sawmill-app.aot} and the JVM is of Java 25 or later (Java 17 does not start
	 * with {@code -XX:AOTCache}), and minimal when its jar was built.
	 * @param javaFeature the feature release of the JVM the variants run on, 0 when not
	 * known
	 */
	static List<LaunchVariant> defaults(Path app, Path minimalJar, int javaFeature) {
		List<LaunchVariant> variants = new ArrayList<>(List.of(JAR, CDS));
		if (Files.isRegularFile(ContainerImage.checkImage(app))) {
			variants.add(IMAGE);
		}
		if (javaFeature >= 25 && Files.isRegularFile(AOT.directory(app).resolve("sawmill-app.aot"))) {
			variants.add(AOT);
		}
		if (Files.isRegularFile(minimalJar)) {
			variants.add(minimal(minimalJar));
		}
		return List.copyOf(variants);
	}

	/**
	 * This variant: the image's entry point if it is {@link #IMAGE}; run in the image's
	 * working directory, with {@code {image}} the unpacked image, if its arguments name
	 * {@code {image}} (e.g. {@code {image}/opt/java/bin/java}).
	 */
	LaunchVariant resolve(ContainerImage image) {
		if (IMAGE.equals(this)) {
			return new LaunchVariant(name, image.command(CHART_JVM_OPTIONS), image.directory().toString());
		}
		if (arguments.stream().anyMatch(argument -> argument.contains("{image}"))) {
			return new LaunchVariant(name,
					arguments.stream().map(argument -> argument.replace("{image}", image.root().toString())).toList(),
					image.directory().toString());
		}
		return this;
	}

	/** Whether this variant needs the image unpacked. */
	boolean usesImage() {
		return IMAGE.equals(this) || arguments.stream().anyMatch(argument -> argument.contains("{image}"));
	}

	/**
	 * {@code name=arguments…}, e.g. {@code c1=-XX:TieredStopAtLevel=1}, run in this
	 * directory; or the name of one of {@code defaults} alone.
	 */
	static LaunchVariant parse(String spec, List<LaunchVariant> defaults) {
		int equals = spec.indexOf('=');
		if (equals < 0) {
			return defaults.stream()
				.filter(variant -> variant.name().equals(spec))
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException("a variant is name=jvm-arguments or one of "
						+ defaults.stream().map(LaunchVariant::name).toList() + ", but was " + spec));
		}
		if (equals == 0) {
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
		if (IMAGE.equals(this)) {
			return "the container image's entry point (sawmill-app/target/jib-image-check.tar, unpacked), with "
					+ String.join(" ", CHART_JVM_OPTIONS);
		}
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
