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
package io.sawmill.bench.e2e.report;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import io.sawmill.testkit.RedisServerProcess;

/**
 * What a run ran on, for the head of its report: the machine, the JVM and the
 * redis-server version.
 */
public final class RunEnvironment {

	private RunEnvironment() {
	}

	/** The redis-server's own version line, or "redis-server" when it cannot be asked. */
	public static String redisVersion() {
		try {
			Process process = new ProcessBuilder(RedisServerProcess.locate().orElseThrow().toString(), "--version")
				.redirectErrorStream(true)
				.start();
			return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
		}
		catch (Exception ex) {
			return "redis-server";
		}
	}

	/** Processors, memory, JDK, heap and OS, in one line. */
	public static String machine() {
		Runtime runtime = Runtime.getRuntime();
		String memory = "?";
		try {
			memory = Files.readAllLines(Path.of("/proc/meminfo")).get(0).replaceAll("\\s+", " ");
		}
		catch (Exception ignored) {
			// not Linux
		}
		return String.format(Locale.ROOT,
				"machine: %d CPUs (availableProcessors), %s, JDK %s (%s), max heap %d MB, %s %s",
				runtime.availableProcessors(), memory, System.getProperty("java.version"),
				System.getProperty("java.vm.name"), runtime.maxMemory() >> 20, System.getProperty("os.name"),
				System.getProperty("os.arch"));
	}

}
