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
package io.sawmill.bench.e2e.run;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.sawmill.bench.e2e.report.Row;
import io.sawmill.bench.e2e.workload.Capability;
import io.sawmill.bench.e2e.workload.KeyDistribution;
import io.sawmill.bench.e2e.workload.Route;
import io.sawmill.bench.e2e.workload.Workload;
import io.sawmill.testkit.LatencyProxy;

/**
 * The end-to-end benchmark's options, from {@code --name=value} arguments;
 * {@code --quick} scales everything down to finish in under two minutes. Fails fast
 * naming the bad argument.
 */
public record BenchOptions(boolean quick, List<Double> rttsMillis, List<Integer> batchSizes, List<String> strategies,
		List<Capability> capabilities, List<Route> routes, int backlog, int idleRate, Duration idleDuration, int fields,
		int valueBytes, int idSpace, KeyDistribution keyDistribution, double zipfExponent, int partitions,
		int sequentialSample, int verifySample, int warmUp, int sawmillDrains, int rttPairs, Duration steadyDuration,
		boolean cluster, Duration ttl, LatencyProxy.Priority proxyPriority, Path out) {

	public static BenchOptions parse(String... args) {
		Map<String, String> given = new LinkedHashMap<>();
		for (String arg : args) {
			if (!arg.startsWith("--")) {
				throw new IllegalArgumentException("arguments are --name=value, but got '" + arg + "'; see --help");
			}
			int eq = arg.indexOf('=');
			given.put(eq < 0 ? arg.substring(2) : arg.substring(2, eq), eq < 0 ? "true" : arg.substring(eq + 1));
		}
		boolean quick = Boolean.parseBoolean(given.remove("quick"));
		String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
		BenchOptions options = new BenchOptions(quick, doubles(given.remove("rtts"), quick ? "0,1" : "0,0.1,1"),
				ints(given.remove("batch-sizes"), quick ? "1000,10000" : "1000,5000,10000"),
				List.of(given.getOrDefault("strategies", String.join(",", Row.STRATEGIES)).split(",")),
				capabilities(given.getOrDefault("capabilities", "")), routes(given.getOrDefault("routes", "")),
				Integer.parseInt(given.getOrDefault("backlog", quick ? "60000" : "500000")),
				Integer.parseInt(given.getOrDefault("idle-rate", "5000")),
				Duration.ofSeconds(Long.parseLong(given.getOrDefault("idle-seconds", quick ? "3" : "8"))),
				Integer.parseInt(given.getOrDefault("fields", "5")),
				Integer.parseInt(given.getOrDefault("value-bytes", "20")),
				Integer.parseInt(given.getOrDefault("id-space", quick ? "40000" : "200000")),
				KeyDistribution.parse(given.getOrDefault("key-distribution", "uniform")),
				Double.parseDouble(given.getOrDefault("zipf-s", "1.1")),
				Integer.parseInt(given.getOrDefault("partitions", "6")),
				Integer.parseInt(given.getOrDefault("sequential-sample", quick ? "1000" : "4000")),
				Integer.parseInt(given.getOrDefault("verify-sample", quick ? "300" : "2000")),
				Integer.parseInt(given.getOrDefault("warm-up", quick ? "30000" : "300000")),
				Integer.parseInt(given.getOrDefault("sawmill-drains", quick ? "1" : "3")),
				Integer.parseInt(given.getOrDefault("rtt-pairs", quick ? "1" : "5")),
				Duration.ofSeconds(Long.parseLong(given.getOrDefault("steady-seconds", quick ? "2" : "5"))),
				onOff(given.getOrDefault("cluster", "on"), "--cluster"),
				Duration.ofSeconds(Long.parseLong(given.getOrDefault("ttl-seconds", "3600"))),
				proxyPriority(given.getOrDefault("proxy-priority", "normal")),
				Path.of(given.getOrDefault("out", "bench-results/" + stamp + (quick ? "-quick" : ""))));
		given.keySet()
			.removeAll(List.of("strategies", "capabilities", "routes", "backlog", "idle-rate", "idle-seconds", "fields",
					"value-bytes", "id-space", "key-distribution", "zipf-s", "partitions", "sequential-sample",
					"verify-sample", "warm-up", "sawmill-drains", "rtt-pairs", "steady-seconds", "cluster",
					"ttl-seconds", "proxy-priority", "out"));
		if (!given.isEmpty()) {
			throw new IllegalArgumentException("unknown option(s) " + given.keySet() + "; see --help");
		}
		options.validate();
		return options;
	}

	/**
	 * The records of {@code distribution} over the id space, of the configured fields and
	 * sizes.
	 */
	public Workload workload(KeyDistribution distribution, boolean versioned) {
		return new Workload(fields, valueBytes, idSpace, distribution.keys(idSpace, zipfExponent), versioned);
	}

	/**
	 * The variants to compare, none when not asked for; each once, in the order given.
	 */
	private static List<Capability> capabilities(String value) {
		if (value.isBlank()) {
			return List.of();
		}
		return Arrays.stream(value.split(",")).map(Capability::parse).distinct().toList();
	}

	/**
	 * The route variants to compare, none when not asked for; each once, in the order
	 * given.
	 */
	private static List<Route> routes(String value) {
		if (value.isBlank()) {
			return List.of();
		}
		return Arrays.stream(value.split(",")).map(Route::parse).distinct().toList();
	}

	private static boolean onOff(String value, String option) {
		return switch (value.toLowerCase(Locale.ROOT)) {
			case "on", "true" -> true;
			case "off", "false" -> false;
			default -> throw new IllegalArgumentException(option + " must be on or off, but was " + value);
		};
	}

	private static LatencyProxy.Priority proxyPriority(String value) {
		try {
			return LatencyProxy.Priority.valueOf(value.toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("--proxy-priority must be normal or realtime, but was " + value, ex);
		}
	}

	private void validate() {
		for (String strategy : strategies) {
			if (!Row.STRATEGIES.contains(strategy)) {
				throw new IllegalArgumentException(
						"--strategies must be among " + Row.STRATEGIES + ", but was " + strategy);
			}
		}
		if (valueBytes < 8) {
			throw new IllegalArgumentException("--value-bytes must be at least 8, but was " + valueBytes);
		}
		if (fields < 1 || backlog < 1 || idSpace < 1 || partitions < 1 || idleRate < 1 || verifySample < 1) {
			throw new IllegalArgumentException(
					"--fields, --backlog, --id-space, --partitions, --idle-rate and --verify-sample must be at least 1");
		}
		if (sawmillDrains < 1) {
			throw new IllegalArgumentException("--sawmill-drains must be at least 1, but was " + sawmillDrains);
		}
		if (rttPairs < 0) {
			throw new IllegalArgumentException("--rtt-pairs must be zero or more, but was " + rttPairs);
		}
		if (steadyDuration.isNegative() || steadyDuration.isZero()) {
			throw new IllegalArgumentException(
					"--steady-seconds must be at least 1, but was " + steadyDuration.toSeconds());
		}
		if (warmUp < 0) {
			throw new IllegalArgumentException("--warm-up must be zero or more records, but was " + warmUp);
		}
		if (!(zipfExponent > 0) || Double.isInfinite(zipfExponent)) {
			throw new IllegalArgumentException("--zipf-s must be greater than 0, but was " + zipfExponent);
		}
		if (rttsMillis.stream().anyMatch(rtt -> rtt < 0)) {
			throw new IllegalArgumentException("--rtts must be zero (direct) or positive, but was " + rttsMillis);
		}
	}

	public static String help() {
		return """
				Sawmill end-to-end benchmark: a Kafka KRaft broker in a JVM of its own, a real redis-server, a latency proxy in front of it,
				and a Redis Cluster of three masters.
				  --quick                 scaled down: about 2 minutes on an idle 2-core machine (the full run about 11)
				  --rtts=0,0.1,1          round trips to Redis in ms (--quick: 0,1); 0 = direct, no proxy
				  --cluster=on            also run Sawmill against a Redis Cluster of three masters (directly), every batch size and
				                          capability; off: not
				  --batch-sizes=1000,5000,10000
				  --strategies=sequential,template,sawmill
				  --backlog=500000        records of the busy shape (drained flat out)
				  --idle-rate=5000        records/s of the idle shape, for --idle-seconds=8
				  --fields=5 --value-bytes=20 --id-space=200000 --partitions=6
				  --key-distribution=uniform  the ids records write: uniform (every id in turn) or zipf (hot keys: a Zipf distribution of
				                          exponent --zipf-s=1.1 over the id space, seeded; records then carry a per-key "version" field)
				  --capabilities=plain,coalesce,version,exactly-once  off unless given: after the table, compare Sawmill with each
				                          capability on (plain: defaults; coalesce: sawmill.coalesce-writes=true; version:
				                          sawmill.mapping.version=field:version; exactly-once: sawmill.delivery=exactly-once) on a
				                          uniform and a zipf backlog of versioned records, at
				                          every RTT and batch size, --sawmill-drains drains each, interleaved: records/s, Redis commands
				                          per record (INFO commandstats), write P99 and the ratios to plain. A variant this build does
				                          not know is reported as not available; the ratios need plain among them
				  --routes=mapping,hash,hash-replace,string,sorted-set,set,list,stream,delete  off unless given: after the table, compare
				                          the built-in mapping path (sawmill.mapping.*) with one declarative route (sawmill.routes[0]) of
				                          each type over the same versioned records, at every RTT and batch size, --sawmill-drains drains
				                          each, interleaved: records/s, Redis commands per record, write P99 and the ratio to mapping
				                          (the hash route's target: 0.95-1.05); the ratios need mapping among them
				  --sequential-sample=4000  records sent one command at a time, then extrapolated
				  --verify-sample=2000    hashes and TTLs read back after each run
				  --warm-up=300000        records each measured consumer strategy drains first, then (not with --quick) one whole cell, unreported, so the JIT has compiled its data path (0: neither)
				  --steady-seconds=5      the steady shape of each Sawmill cell (--quick: 2): right after its first busy drain, a producer
				                          at half the records/s that drain measured, for this long
				  --rtt-pairs=5           alternating pairs of busy drains (--quick: 1) of the direct cell and each cell at an RTT ≥ 1 ms,
				                          per batch size, one right after the other: the RTT target is judged on their ratios' median
				  --sawmill-drains=3      busy drains of the backlog per Sawmill cell (--quick: 1): the first right after the cell's idle run,
				                          the others after all cells, in rounds over the batch sizes; cells in an RTT pair drain
				                          1 + max(sawmill-drains - 1, rtt-pairs) times. A row shows the median drain's records/s and CPU
				                          per record and the percentiles of all its drains' batches; the template loop drains once
				  --proxy-priority=normal the latency proxy's threads: normal, or realtime (SCHED_FIFO through chrt, needs root or CAP_SYS_NICE): late chunks become rare, but every chunk preempts the client and Redis, which costs a client that flushes per command (the template loop) about half its throughput on 2 cores
				  --out=bench-results/<timestamp>
				""";
	}

	public static boolean wantsHelp(String... args) {
		return Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h");
	}

	private static List<Double> doubles(String value, String fallback) {
		return Arrays.stream((value == null ? fallback : value).split(",")).map(Double::parseDouble).toList();
	}

	private static List<Integer> ints(String value, String fallback) {
		return Arrays.stream((value == null ? fallback : value).split(",")).map(Integer::parseInt).toList();
	}
}
