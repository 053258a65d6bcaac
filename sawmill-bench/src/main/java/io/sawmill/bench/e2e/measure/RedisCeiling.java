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
package io.sawmill.bench.e2e.measure;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Redis server's own ceiling for this workload, measured in the same run on the same
 * machine: {@code redis-benchmark -P 1000} sending HSET (id + N fields of the workload's
 * size) and EXPIRE on random keys of the id space, directly (no proxy). One record is one
 * HSET and one EXPIRE, so the record ceiling is {@code 1 / (1/hset + 1/expire)}. Each is
 * the best of {@value #ATTEMPTS} runs: a ceiling is what the server can do, and on a
 * shared machine one run can land on a busy moment.
 */
public final class RedisCeiling {

	static final int ATTEMPTS = 3;

	private static final Pattern RPS = Pattern.compile("([0-9.]+) requests per second");

	/**
	 * @param hsetPerSecond HSETs per second
	 * @param expirePerSecond EXPIREs per second
	 * @param how the command that measured it
	 */
	public record Result(double hsetPerSecond, double expirePerSecond, String how) {

		public double recordsPerSecond() {
			return 1 / (1 / hsetPerSecond + 1 / expirePerSecond);
		}
	}

	public static Optional<Path> locate() {
		for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			Path candidate = Path.of(dir, "redis-benchmark");
			if (Files.isExecutable(candidate)) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
	}

	public static Result measure(Path redisBenchmark, int port, int requests, int idSpace, int fields, int valueBytes)
			throws Exception {
		List<String> hset = new ArrayList<>(List.of("HSET", "rec:__rand_int__", "id", "__rand_int__"));
		for (int f = 1; f <= fields; f++) {
			hset.add("f" + f);
			hset.add("x".repeat(valueBytes));
		}
		double hsets = 0;
		double expires = 0;
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			hsets = Math.max(hsets, run(redisBenchmark, port, requests, idSpace, hset));
			expires = Math.max(expires,
					run(redisBenchmark, port, requests, idSpace, List.of("EXPIRE", "rec:__rand_int__", "3600")));
		}
		return new Result(hsets, expires,
				"redis-benchmark -c 4 -P 1000 -n " + requests + " -r " + idSpace + ", best of " + ATTEMPTS);
	}

	private static double run(Path redisBenchmark, int port, int requests, int idSpace, List<String> command)
			throws Exception {
		List<String> args = new ArrayList<>(
				List.of(redisBenchmark.toString(), "-h", "127.0.0.1", "-p", Integer.toString(port), "-c", "4", "-P",
						"1000", "-n", Integer.toString(requests), "-r", Integer.toString(idSpace), "-q"));
		args.addAll(command);
		Process process = new ProcessBuilder(args).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
			throw new IllegalStateException("redis-benchmark failed: " + output);
		}
		Matcher matcher = RPS.matcher(output);
		if (!matcher.find()) {
			throw new IllegalStateException("no 'requests per second' in redis-benchmark's output: " + output);
		}
		return Double.parseDouble(matcher.group(1));
	}

}
