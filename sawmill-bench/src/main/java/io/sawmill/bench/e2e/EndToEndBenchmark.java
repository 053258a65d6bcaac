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
package io.sawmill.bench.e2e;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import io.sawmill.bench.e2e.measure.BatchRecorder;
import io.sawmill.bench.e2e.measure.ConsumerCpu;
import io.sawmill.bench.e2e.measure.RedisCeiling;
import io.sawmill.bench.e2e.measure.Verification;
import io.sawmill.bench.e2e.report.CapabilityReport;
import io.sawmill.bench.e2e.report.CapabilityRow;
import io.sawmill.bench.e2e.report.Plots;
import io.sawmill.bench.e2e.report.Report;
import io.sawmill.bench.e2e.report.RouteReport;
import io.sawmill.bench.e2e.report.RouteRow;
import io.sawmill.bench.e2e.report.Row;
import io.sawmill.bench.e2e.report.RunEnvironment;
import io.sawmill.bench.e2e.run.BenchOptions;
import io.sawmill.bench.e2e.run.CapabilityComparison;
import io.sawmill.bench.e2e.run.Cell;
import io.sawmill.bench.e2e.run.MainTable;
import io.sawmill.bench.e2e.run.Producing;
import io.sawmill.bench.e2e.run.RouteComparison;
import io.sawmill.bench.e2e.run.SawmillRunner;
import io.sawmill.bench.e2e.run.Status;
import io.sawmill.bench.e2e.run.TemplateLoop;
import io.sawmill.bench.e2e.run.WarmUp;
import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.bench.e2e.workload.KeyDistribution;
import io.sawmill.bench.e2e.workload.Workload;
import io.sawmill.bench.e2e.workload.ZipfKeys;
import io.sawmill.testkit.KafkaBrokerProcess;
import io.sawmill.testkit.LatencyProxy;
import io.sawmill.testkit.RedisClusterProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * The end-to-end benchmark: everything on loopback — a KRaft broker in a JVM of its own,
 * a real redis-server, a {@link LatencyProxy} in this JVM in front of it per RTT, a Redis
 * Cluster of three masters — and three ways of moving JSON records from Kafka to Redis as
 * HSET + EXPIRE, measured in the same run: one command per round trip (sequential), a
 * plain loop with {@code RedisTemplate.executePipelined} (template), and the real Sawmill
 * service with its defaults (sawmill; the only one also run against the cluster). Each
 * runs an idle load (a fixed rate well under capacity) and a busy one (a backlog drained
 * flat out, by Sawmill several times, in rounds), Sawmill also a steady one (half its
 * busy rate); every run is verified against Redis. The consumers run in this JVM, one at
 * a time, so the JVM's CPU time over a drain is the consumer's ({@link ConsumerCpu}).
 * With {@code --capabilities}, a {@link CapabilityComparison} follows; with
 * {@code --routes}, a {@link RouteComparison}. Writes results.md, results.csv and PNG
 * plots to {@code --out}; exits 1 when a run fails to verify.
 * <p>
 * {@code java -jar sawmill-bench/target/sawmill-bench.jar [--quick] [--help]}
 */
public final class EndToEndBenchmark implements Cell.Run {

	private static final PrintStream OUT = System.out;

	private final BenchOptions options;

	/** The arguments as given, for the report's "Run:" line. */
	private final List<String> args;

	private final Workload workload;

	private final Status status = new Status(OUT);

	private final List<Row> rows = new ArrayList<>();

	private List<CapabilityRow> capabilities = List.of();

	private List<RouteRow> routes = List.of();

	private final List<String> notes = new ArrayList<>();

	private EndToEndBenchmark(BenchOptions options, List<String> args) {
		this.options = options;
		this.args = args;
		this.workload = options.workload(options.keyDistribution(), options.keyDistribution() == KeyDistribution.ZIPF);
	}

	public static void main(String[] args) throws Exception {
		if (BenchOptions.wantsHelp(args)) {
			OUT.print(BenchOptions.help());
			return;
		}
		BenchOptions options;
		try {
			options = BenchOptions.parse(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.exit(2);
			return;
		}
		boolean ok = new EndToEndBenchmark(options, List.of(args)).run();
		System.exit(ok ? 0 : 1);
	}

	private boolean run() throws Exception {
		long started = System.nanoTime();
		Files.createDirectories(options.out());
		note(RunEnvironment.machine());
		note(String.format(Locale.ROOT,
				"workload: JSON id + %d fields × %d bytes, id space %,d%s, HSET + EXPIRE %d s per record; %d partitions; "
						+ "busy backlog %,d records; idle %,d records/s for %d s",
				options.fields(), options.valueBytes(), options.idSpace(),
				options.keyDistribution() == KeyDistribution.UNIFORM ? ""
						: String.format(Locale.ROOT,
								" drawn from a Zipf distribution (s = %s, seed %d), a version field",
								options.zipfExponent(), ZipfKeys.SEED),
				options.ttl().toSeconds(), options.partitions(), options.backlog(), options.idleRate(),
				options.idleDuration().toSeconds()));
		RedisCeiling.Result ceiling;
		Path kafkaDir = Files.createTempDirectory("sawmill-bench-kafka-");
		try (RedisServerProcess redis = RedisServerProcess.startNew();
				KafkaBrokerProcess kafka = KafkaBrokerProcess.start(kafkaDir)) {
			note(RunEnvironment.redisVersion() + " on 127.0.0.1:" + redis.port()
					+ "; Kafka KRaft broker in a JVM of its own (-Xmx512m -XX:+UseSerialGC) at "
					+ kafka.bootstrapServers());
			ceiling = ceiling(redis);
			Verification.flushAll(Endpoint.standalone(0, null, redis));

			kafka.createTopic("backlog", options.partitions());
			AtomicLong produced = new AtomicLong();
			status.step("producing the busy backlog", options.backlog(), produced::get);
			long t0 = System.nanoTime();
			Producing.produce(kafka.bootstrapServers(), "backlog", workload, options.backlog(), 0, produced::set);
			note(String.format(Locale.ROOT, "backlog of %,d records produced in %.1f s", options.backlog(),
					(System.nanoTime() - t0) / 1e9));
			List<Endpoint> endpoints = new ArrayList<>();
			RedisClusterProcess cluster = options.cluster() ? startCluster() : null;
			try {
				Optional<Endpoint> clusterEndpoint = Optional.ofNullable(cluster).map(Endpoint::cluster);
				new WarmUp(this, kafka).run(redis, clusterEndpoint);
				for (double rtt : options.rttsMillis()) {
					endpoints
						.add(Endpoint.standalone(rtt,
								rtt == 0 ? null
										: LatencyProxy.start(redis.host(), redis.port(),
												Duration.ofNanos((long) (rtt * 1e6 / 2)), options.proxyPriority()),
								redis));
				}
				clusterEndpoint.ifPresent(endpoints::add);
				rows.addAll(new MainTable(this, kafka, redis).measure(endpoints));
				if (!options.capabilities().isEmpty()) {
					capabilities = new CapabilityComparison(this, kafka).run(endpoints);
				}
				if (!options.routes().isEmpty()) {
					routes = new RouteComparison(this, kafka).run(endpoints);
				}
			}
			finally {
				for (Endpoint endpoint : endpoints) {
					if (endpoint.proxy() != null) {
						note("proxy at RTT " + Endpoint.rttLabel(endpoint.rtt()) + ": " + endpoint.proxy().stats());
						endpoint.proxy().close();
					}
				}
				if (cluster != null) {
					cluster.close();
				}
			}
		}
		finally {
			status.close();
			deleteQuietly(kafkaDir);
		}
		return report(ceiling, (System.nanoTime() - started) / 1e9);
	}

	/** The three-master cluster, or null (noted) when it cannot be formed here. */
	private RedisClusterProcess startCluster() {
		status.step("forming a Redis Cluster of three masters", 0, () -> 0);
		try {
			RedisClusterProcess cluster = RedisClusterProcess.startNew();
			note("Redis Cluster: three masters (redis-server, no replicas) on 127.0.0.1:" + cluster.ports()
					+ ", Sawmill only, directly (no proxy)");
			return cluster;
		}
		catch (RuntimeException ex) {
			note("Redis Cluster: not measured, " + ex.getMessage());
			return null;
		}
	}

	/** The opening ceiling, before anything else runs. */
	private RedisCeiling.Result ceiling(RedisServerProcess redis) {
		if (RedisCeiling.locate().isEmpty()) {
			note("Redis ceiling: not measured, redis-benchmark is not on the PATH (apt-get install -y redis-tools)");
			return null;
		}
		return measureCeiling(redis, "measuring the Redis ceiling (redis-benchmark)", "Redis ceiling",
				options.quick() ? 300_000 : 1_000_000);
	}

	/**
	 * Runs {@link RedisCeiling#measure} and notes the result (or why there is none) under
	 * {@code name}.
	 */
	private RedisCeiling.Result measureCeiling(RedisServerProcess redis, String step, String name, int requests) {
		Optional<Path> redisBenchmark = RedisCeiling.locate();
		if (redisBenchmark.isEmpty()) {
			return null;
		}
		status.step(step, 0, () -> 0);
		try {
			RedisCeiling.Result ceiling = RedisCeiling.measure(redisBenchmark.get(), redis.port(), requests,
					options.idSpace(), options.fields(), options.valueBytes());
			note(String.format(Locale.ROOT,
					"%s (%s, direct): HSET %,.0f/s, EXPIRE %,.0f/s → %,.0f records/s (HSET + EXPIRE)", name,
					ceiling.how(), ceiling.hsetPerSecond(), ceiling.expirePerSecond(), ceiling.recordsPerSecond()));
			return ceiling;
		}
		catch (Exception ex) {
			note(name + ": not measured, " + ex.getMessage());
			return null;
		}
	}

	/**
	 * The ceiling again, right before a busy run: on a shared machine the speed drifts
	 * during a run (the template loop moved by up to 30% between two runs of the same
	 * code), so a row is compared with the ceiling of its own moment. Half the requests
	 * of the opening measurement, still the best of {@value RedisCeiling#ATTEMPTS}.
	 */
	@Override
	public RedisCeiling.Result ceilingNextTo(String label, RedisServerProcess redis) {
		return measureCeiling(redis, "Redis ceiling before busy: " + label, "Redis ceiling before busy " + label,
				500_000);
	}

	@Override
	public AutoCloseable consumer(String strategy, KafkaBrokerProcess kafka, String topic, String group, int batch,
			Endpoint endpoint, BatchRecorder recorder) {
		if (strategy.equals("template")) {
			if (endpoint.cluster()) {
				throw new IllegalArgumentException("the template loop runs against one server only");
			}
			TemplateLoop loop = new TemplateLoop(kafka.bootstrapServers(), topic, group, batch, endpoint.host(),
					endpoint.port(), options.ttl(), recorder);
			return () -> {
				loop.close();
				if (loop.failure() != null) {
					notes.add("template loop failed: " + loop.failure());
				}
			};
		}
		return new SawmillRunner(kafka.bootstrapServers(), topic, group, batch, endpoint, options.ttl(), recorder);
	}

	private boolean report(RedisCeiling.Result ceiling, double seconds) throws Exception {
		String table = Report.markdownTable(rows, ceiling, options.backlog());
		List<String> targets = new ArrayList<>(Report.targets(rows, ceiling));
		targets.addAll(CapabilityReport.targets(capabilities));
		targets.addAll(RouteReport.targets(routes));
		List<String> plots = Plots.write(options.out(), rows, ceiling);
		boolean verified = rows.stream().allMatch(Row::verified) && !rows.isEmpty()
				&& capabilities.stream().allMatch(CapabilityRow::verified)
				&& routes.stream().allMatch(RouteRow::verified);
		String comparisons = (capabilities.isEmpty() ? "" : CapabilityReport.markdownSection(capabilities))
				+ (routes.isEmpty() ? "" : (capabilities.isEmpty() ? "" : "\n") + RouteReport.markdownSection(routes));
		String run = String.format(Locale.ROOT, "`java -jar sawmill-bench/target/sawmill-bench.jar%s`, %.1f min",
				args.stream().map(arg -> " " + arg).collect(Collectors.joining()), seconds / 60);
		String md = Report.resultsMarkdown(run, notes, table, targets, comparisons, plots, rows);
		Files.writeString(options.out().resolve("results.md"), md, StandardCharsets.UTF_8);
		Files.writeString(options.out().resolve("results.csv"),
				Report.csv(rows, options.keyDistribution().label(), capabilities), StandardCharsets.UTF_8);

		OUT.println();
		OUT.println(table);
		OUT.print(capabilities.isEmpty() ? "" : CapabilityReport.markdownTable(capabilities) + "\n");
		OUT.print(routes.isEmpty() ? "" : RouteReport.markdownTable(routes) + "\n");
		targets.forEach(OUT::println);
		OUT.println();
		OUT.println("Results: " + options.out().toAbsolutePath() + " (results.md, results.csv, "
				+ String.join(", ", plots) + ")");
		OUT.println(verified ? "VERIFIED: every run left the expected keys, hashes and TTLs in Redis"
				: "BENCHMARK FAILED: a run did not verify (see the Verification section of results.md)");
		return verified;
	}

	@Override
	public BenchOptions options() {
		return options;
	}

	@Override
	public Workload workload() {
		return workload;
	}

	@Override
	public Status status() {
		return status;
	}

	@Override
	public void note(String note) {
		notes.add(note);
		status.println(note);
	}

	private static void deleteQuietly(Path dir) {
		try (var paths = Files.walk(dir)) {
			paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
		}
		catch (java.io.IOException ex) {
			System.err.println("could not delete " + dir + ": " + ex);
		}
	}

}
