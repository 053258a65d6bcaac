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

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.sawmill.bench.e2e.workload.Endpoint;

/**
 * Redis' own count of the commands it ran over a drain, from {@code INFO commandstats}:
 * reset ({@code CONFIG RESETSTAT}) before the consumer starts, read after it stopped, on
 * one connection opened before the reset so that its own handshake is not counted. The
 * reset itself is subtracted; the INFO that reads the counts is not in its own answer.
 * What the consumer sends at start-up and shutdown counts, and so does every command a
 * Redis Function or script runs ({@code redis.call}): Redis counts those like any other.
 * The benchmark owns the servers, so resetting their statistics disturbs nobody. On a
 * cluster, each server's counts are read the same way and summed.
 */
public final class CommandStats implements AutoCloseable {

	/** The reset, the only command this connection sends before the read. */
	static final String RESET = "config|resetstat";

	private static final long TIMEOUT_SECONDS = 60;

	private final List<Verification.Direct> servers;

	private CommandStats(List<Verification.Direct> servers) {
		this.servers = servers;
	}

	/**
	 * Connects to the endpoint's server (each server of a cluster) directly and resets
	 * its statistics.
	 */
	public static CommandStats reset(Endpoint endpoint) throws Exception {
		List<Verification.Direct> servers = new ArrayList<>();
		try {
			for (int port : endpoint.directPorts()) {
				Verification.Direct direct = new Verification.Direct(new Endpoint(0, null, endpoint.directHost(), port,
						endpoint.directHost(), List.of(port), false));
				servers.add(direct);
				direct.async().configResetstat().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
			}
			return new CommandStats(servers);
		}
		catch (Exception ex) {
			servers.forEach(Verification.Direct::close);
			throw ex;
		}
	}

	/** The commands Redis ran since the reset, without the reset. */
	public Counts read() throws Exception {
		Map<String, Long> all = new TreeMap<>();
		for (Verification.Direct direct : servers) {
			Map<String, Long> calls = parse(direct.async().info("commandstats").get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
			calls.computeIfPresent(RESET, (name, n) -> n > 1 ? n - 1 : null);
			calls.forEach((name, n) -> all.merge(name, n, Long::sum));
		}
		return new Counts(all);
	}

	@Override
	public void close() {
		servers.forEach(Verification.Direct::close);
	}

	/**
	 * The {@code calls} of each command in an {@code INFO commandstats} answer, by name
	 * (a subcommand as Redis names it, e.g. {@code config|resetstat}); lines of other
	 * shapes are skipped.
	 */
	static Map<String, Long> parse(String info) {
		Map<String, Long> calls = new TreeMap<>();
		for (String line : info.split("\r?\n")) {
			int colon = line.indexOf(':');
			if (!line.startsWith("cmdstat_") || colon < 0) {
				continue;
			}
			for (String stat : line.substring(colon + 1).split(",")) {
				if (stat.startsWith("calls=")) {
					calls.merge(line.substring("cmdstat_".length(), colon), Long.parseLong(stat.substring(6).trim()),
							Long::sum);
				}
			}
		}
		return calls;
	}

	/** Calls per command over one drain. */
	public record Counts(Map<String, Long> calls) {

		public Counts {
			calls = Map.copyOf(calls);
		}

		public long total() {
			return calls.values().stream().mapToLong(Long::longValue).sum();
		}

		public double perRecord(long records) {
			return total() / (double) records;
		}

		/**
		 * Per record, the commands that ran at least once per 200 records, most first
		 * ({@code hset 1.00, expire 1.00}); the rest summed up.
		 */
		public String perRecordByCommand(long records) {
			StringBuilder text = new StringBuilder();
			long rest = 0;
			for (Map.Entry<String, Long> command : byCount()) {
				if (command.getValue() * 200 >= records) {
					text.append(text.length() == 0 ? "" : ", ")
						.append(String.format(Locale.ROOT, "%s %.2f", command.getKey(),
								command.getValue() / (double) records));
				}
				else {
					rest += command.getValue();
				}
			}
			return rest == 0 ? text.toString() : text + String.format(Locale.ROOT, "%s%,d other call%s",
					text.length() == 0 ? "" : ", ", rest, rest == 1 ? "" : "s");
		}

		/**
		 * Every command with its calls, most first:
		 * {@code hset=60000 expire=60000 hello=2}.
		 */
		public String all() {
			return byCount().stream()
				.map(command -> command.getKey() + "=" + command.getValue())
				.collect(Collectors.joining(" "));
		}

		private java.util.List<Map.Entry<String, Long>> byCount() {
			return calls.entrySet()
				.stream()
				.sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
					.thenComparing(Map.Entry.comparingByKey()))
				.toList();
		}
	}

}
