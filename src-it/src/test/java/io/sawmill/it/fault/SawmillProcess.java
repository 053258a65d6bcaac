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
package io.sawmill.it.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.sawmill.it.support.Kafka;

/**
 * The Sawmill service as its own JVM:
 * {@code java -jar sawmill-app-*-exec.jar --prop=value…}, the way it is deployed, so that
 * it can be SIGKILLed. The jar is the one {@code sawmill-app} packages before
 * {@code src-it} runs in the reactor build; its output goes to a log file.
 */
public final class SawmillProcess implements AutoCloseable {

	private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);

	private final Process process;

	private final Path log;

	private SawmillProcess(Process process, Path log) {
		this.process = process;
		this.log = log;
	}

	/**
	 * {@code ../sawmill-app/target/sawmill-app-*-exec.jar} from the src-it module
	 * directory.
	 */
	public static Path execJar() {
		Path target = Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
			.resolve("../sawmill-app/target")
			.normalize();
		try (Stream<Path> files = Files.exists(target) ? Files.list(target) : Stream.empty()) {
			return files.filter(f -> f.getFileName().toString().matches("sawmill-app-.*-exec\\.jar"))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("no sawmill-app-*-exec.jar in " + target
						+ ": build it first (./mvnw -pl sawmill-app -am package -DskipTests)"));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static SawmillProcess start(Map<String, Object> properties, Path log) {
		return start(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", execJar().toString()),
				null, properties, log);
	}

	/**
	 * An application of the tests' own, {@code main}, run as its own JVM on the tests'
	 * class path (sawmill-core and what the tests compiled): a custom
	 * {@code RecordMapper} that the packaged jar does not hold, in a process that can be
	 * SIGKILLed.
	 */
	static SawmillProcess startMain(Class<?> main, Map<String, Object> properties, Path log) {
		return start(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
				System.getProperty("java.class.path"), main.getName()), null, properties, log);
	}

	/**
	 * The start-up layout {@code sawmill-app} packages ({@code target/sawmill-app}: the
	 * extracted jar and its CDS archive), started as documented, from its directory, with
	 * {@code -Xshare:on}: the JVM refuses to start unless it can use the archive.
	 */
	static SawmillProcess startFromCdsLayout(Map<String, Object> properties, Path log) {
		Path layout = execJar().resolveSibling("sawmill-app");
		return start(
				List.of("-Xmx256m", "-Xshare:on", "-XX:SharedArchiveFile=sawmill-app.jsa", "-jar", "sawmill-app.jar"),
				layout, properties, log);
	}

	/**
	 * The start-up layout with the JDK AOT cache a build on Java 25 or later writes
	 * ({@code sawmill-app.aot}), started as documented, with {@code -XX:AOTMode=on}: the
	 * JVM refuses to start unless it can use the cache.
	 */
	static SawmillProcess startFromAotCache(Map<String, Object> properties, Path log) {
		Path layout = execJar().resolveSibling("sawmill-app");
		return start(List.of("-Xmx256m", "-XX:AOTMode=on", "-XX:AOTCache=sawmill-app.aot", "-jar", "sawmill-app.jar"),
				layout, properties, log);
	}

	/**
	 * Whether the build wrote the AOT cache (it ran on Java 25 or later) and this JVM can
	 * map one.
	 */
	static boolean aotCacheBuilt() {
		return Runtime.version().feature() >= 25
				&& Files.isRegularFile(execJar().resolveSibling("sawmill-app").resolve("sawmill-app.aot"));
	}

	private static SawmillProcess start(List<String> jvmArguments, Path directory, Map<String, Object> properties,
			Path log) {
		return start(Path.of(System.getProperty("java.home"), "bin", "java"), jvmArguments, directory, properties, log);
	}

	/**
	 * The service started by {@code java} (e.g. the image's runtime) with
	 * {@code jvmArguments} (which name what to run), in {@code directory} (null: this
	 * one), configured by {@code properties} as {@code --} arguments.
	 */
	static SawmillProcess start(Path java, List<String> jvmArguments, Path directory, Map<String, Object> properties,
			Path log) {
		List<String> command = new ArrayList<>();
		command.add(java.toString());
		command.addAll(jvmArguments);
		command.addAll(Kafka.args(properties));
		try {
			Files.createDirectories(log.getParent());
			Process process = new ProcessBuilder(command).directory(directory == null ? null : directory.toFile())
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
				.start();
			return new SawmillProcess(process, log);
		}
		catch (IOException ex) {
			throw new IllegalStateException("could not start " + command + ": " + ex.getMessage(), ex);
		}
	}

	boolean isAlive() {
		return process.isAlive();
	}

	long pid() {
		return process.pid();
	}

	/**
	 * Waits up to {@code timeout} for the JVM to exit by itself: its exit code, or empty
	 * while it still runs.
	 */
	OptionalInt awaitExitCode(Duration timeout) throws InterruptedException {
		return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? OptionalInt.of(process.exitValue())
				: OptionalInt.empty();
	}

	/**
	 * SIGKILL: the JVM dies at once, with no shutdown hook, no graceful stop, no last
	 * commit.
	 */
	void kill() {
		process.destroyForcibly();
		awaitExit();
	}

	/**
	 * SIGSTOP: the whole JVM stops where it is, as in a long GC pause or a frozen host;
	 * its sockets stay open.
	 */
	void freeze() {
		signal("STOP");
	}

	/** SIGCONT: a {@link #freeze frozen} JVM goes on from where it stopped. */
	void thaw() {
		signal("CONT");
	}

	private void signal(String name) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
			if (kill.waitFor() != 0) {
				throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("could not run kill: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** How many lines of the process output contain {@code text}. */
	long logLinesContaining(String text) {
		try (java.util.stream.Stream<String> lines = Files.lines(log)) {
			return lines.filter(line -> line.contains(text)).count();
		}
		catch (IOException ex) {
			return 0;
		}
	}

	/**
	 * SIGTERM, as Kubernetes stops a pod, and wait for the JVM to exit; returns how long
	 * that took.
	 */
	Duration terminate() {
		long started = System.nanoTime();
		process.destroy();
		awaitExit();
		return Duration.ofNanos(System.nanoTime() - started);
	}

	private void awaitExit() {
		try {
			if (!process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException(
						"Sawmill process " + process.pid() + " did not exit within " + EXIT_TIMEOUT);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** The last lines of the process output, for a failure message. */
	String logTail() {
		try {
			List<String> lines = Files.readAllLines(log);
			return String.join(System.lineSeparator(), lines.subList(Math.max(0, lines.size() - 40), lines.size()));
		}
		catch (IOException ex) {
			return "(no log at " + log + ")";
		}
	}

	/**
	 * SIGKILL if it still runs, frozen or not: nothing here depends on a graceful stop.
	 */
	@Override
	public void close() {
		if (process.isAlive()) {
			kill();
		}
	}

}
