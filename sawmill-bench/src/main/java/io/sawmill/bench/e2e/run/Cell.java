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

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.sawmill.bench.e2e.measure.BatchRecorder;
import io.sawmill.bench.e2e.measure.ConsumerCpu;
import io.sawmill.bench.e2e.measure.RedisCeiling;
import io.sawmill.bench.e2e.measure.Verification;
import io.sawmill.bench.e2e.report.Durations;
import io.sawmill.bench.e2e.report.Row;
import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.bench.e2e.workload.Workload;
import io.sawmill.testkit.KafkaBrokerProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * One row in the making: the idle load, then the busy backlog, drained once by the
 * template loop and several times by Sawmill (see
 * {@link io.sawmill.bench.e2e.EndToEndBenchmark}), each drain by a new consumer group
 * into a flushed Redis and verified after it, measuring the consumer's CPU per record;
 * for Sawmill, the steady load after the first drain. The first drain is preceded by the
 * ceiling next to it (one server only). A warm-up cell runs once, unreported, for the
 * JIT.
 */
public final class Cell {

	/** What a cell needs from the run around it. */
	public interface Run {

		BenchOptions options();

		Workload workload();

		Status status();

		/**
		 * A consumer of {@code strategy} on {@code topic}, recording into
		 * {@code recorder} until closed.
		 */
		AutoCloseable consumer(String strategy, KafkaBrokerProcess kafka, String topic, String group, int batch,
				Endpoint endpoint, BatchRecorder recorder);

		/**
		 * The Redis ceiling measured right before a busy drain, or null where it cannot
		 * be measured.
		 */
		RedisCeiling.Result ceilingNextTo(String label, RedisServerProcess redis);

		/** A line for the run's notes and the console. */
		void note(String note);

	}

	/** Records the steady shape's consumer reads before the measured ones. */
	private static final int PRIMER = 1_000;

	/** Numbers the cells of a run, for their topics and consumer groups. */
	private static int cellNumber;

	private final Run run;

	private final BenchOptions options;

	private final Workload workload;

	private final Status status;

	private final KafkaBrokerProcess kafka;

	private final RedisServerProcess redis;

	private final String strategy;

	private final Endpoint endpoint;

	private final int batch;

	private final boolean warmUp;

	private final String label;

	private final int number = ++cellNumber;

	private final List<BatchRecorder> drains = new ArrayList<>();

	private final List<String> drainsVerified = new ArrayList<>();

	private BatchRecorder idle;

	private Verification.Result idleVerified;

	private BatchRecorder steady;

	private RedisCeiling.Result ceiling;

	private boolean ok = true;

	private long fullGcs;

	private long peakHeap;

	public Cell(Run run, KafkaBrokerProcess kafka, RedisServerProcess redis, String strategy, Endpoint endpoint,
			int batch, boolean warmUp) {
		this.run = run;
		this.options = run.options();
		this.workload = run.workload();
		this.status = run.status();
		this.kafka = kafka;
		this.redis = redis;
		this.strategy = strategy;
		this.endpoint = endpoint;
		this.batch = batch;
		this.warmUp = warmUp;
		this.label = String.format(Locale.ROOT, "%s%s, %s%s, batch %,d", warmUp ? "warm-up cell: " : "", strategy,
				endpoint.cluster() ? "" : "RTT ", endpoint.label(), batch);
	}

	Endpoint endpoint() {
		return endpoint;
	}

	int batch() {
		return batch;
	}

	/** Busy drains so far. */
	int drains() {
		return drains.size();
	}

	// the try keeps the consumer running for its body, which never calls it
	@SuppressWarnings("try")
	public void idle() throws Exception {
		Verification.flushAll(endpoint);
		String idleTopic = "idle-" + number;
		kafka.createTopic(idleTopic, options.partitions());
		long idleRecords = (long) options.idleRate() * options.idleDuration().toSeconds();
		idle = new BatchRecorder();
		try (AutoCloseable consumer = run.consumer(strategy, kafka, idleTopic, "idle-" + number, batch, endpoint,
				idle)) {
			status.step("idle: " + label, idleRecords, idle::records);
			Producing.produce(kafka.bootstrapServers(), idleTopic, workload, idleRecords, options.idleRate(), n -> {
			});
			await(idle, idleRecords, Duration.ofMinutes(3));
		}
		idleVerified = Verification.verify(endpoint, workload, idleRecords, options.verifySample(), options.ttl());
		ok &= idle.records() >= idleRecords && idleVerified.ok();
	}

	/**
	 * One busy drain of the backlog; the first is preceded by the ceiling next to it.
	 * @param of how many drains this cell makes in the run, for the status line
	 */
	// the try keeps the consumer running for its body, which never calls it
	@SuppressWarnings("try")
	public void drain(int of) throws Exception {
		int drain = drains.size() + 1;
		if (drain == 1 && !options.quick() && !warmUp && !endpoint.cluster()) {
			ceiling = run.ceilingNextTo(label, redis);
		}
		String which = of == 1 ? "" : String.format(Locale.ROOT, " (drain %d of %d)", drain, of);
		Verification.flushAll(endpoint);
		BatchRecorder busy = new BatchRecorder(ConsumerCpu::nanos, options.backlog());
		long fullGcsBefore = fullGcs();
		status.step("busy: " + label + which, options.backlog(), busy::records);
		try (AutoCloseable consumer = run.consumer(strategy, kafka, "backlog", "busy-" + number + "-" + drain, batch,
				endpoint, busy)) {
			await(busy, options.backlog(), Duration.ofMinutes(options.quick() ? 2 : 6));
		}
		peakHeap = Math.max(peakHeap, status.peakHeapBytes());
		fullGcs += fullGcs() - fullGcsBefore;
		Verification.Result verified = Verification.verify(endpoint, workload, options.backlog(),
				options.verifySample(), options.ttl());
		BatchRecorder.Summary summary = busy.summary();
		boolean complete = summary.records() >= options.backlog();
		ok &= complete && verified.ok();
		drains.add(busy);
		drainsVerified.add("busy" + which + " " + verified.text() + (complete ? "" : "; INCOMPLETE (timed out)"));
		String idlePart = drain == 1
				? String.format(Locale.ROOT, "idle P99 %9s, ", Durations.ms(idle.summary().write().p99())) : "";
		status.println(String.format(Locale.ROOT,
				"%-38s write: %sbusy P50 %9s P99 %9s max %9s | busy poll→commit P99 %9s | %,9.0f records/s, %s CPU per record%s, "
						+ "drained in %s | %sbusy %s",
				label + which, idlePart, Durations.ms(summary.write().p50()), Durations.ms(summary.write().p99()),
				Durations.ms(summary.write().max()), Durations.ms(summary.pollToCommit().p99()),
				summary.recordsPerSecond(), Durations.micros(summary.cpuNanosPerRecord()), busy.cpuSplit(),
				Durations.duration(summary.spanNanos() / 1e9), drain == 1 ? "idle " + idleVerified.text() + " | " : "",
				verified.text()));
	}

	/**
	 * The steady load, after the first drain: a producer at half the records per second
	 * that drain measured, for {@code --steady-seconds}. The consumer first reads
	 * {@value #PRIMER} records produced before it starts, so that group join and start-up
	 * are over (and not a backlog of their own) when the measured records begin; only
	 * those are recorded.
	 */
	// the try keeps the consumer running for its body, which never calls it
	@SuppressWarnings("try")
	public void steady() throws Exception {
		int rate = (int) Math.max(1, drains.get(0).summary().recordsPerSecond() / 2);
		long records = PRIMER + (long) rate * options.steadyDuration().toSeconds();
		Verification.flushAll(endpoint);
		String topic = "steady-" + number;
		kafka.createTopic(topic, options.partitions());
		Producing.produce(kafka.bootstrapServers(), topic, workload, 0, PRIMER, 0, n -> {
		});
		steady = new BatchRecorder();
		try (AutoCloseable consumer = run.consumer(strategy, kafka, topic, topic, batch, endpoint, steady)) {
			status.step("steady (start-up): " + label, PRIMER, steady::records);
			await(steady, PRIMER, Duration.ofMinutes(2));
			steady.restart();
			status.step(String.format(Locale.ROOT, "steady at %,d records/s: %s", rate, label), records - PRIMER,
					steady::records);
			Producing.produce(kafka.bootstrapServers(), topic, workload, PRIMER, records, rate, n -> {
			});
			await(steady, records - PRIMER, Duration.ofMinutes(3));
		}
		Verification.Result verified = Verification.verify(endpoint, workload, records, options.verifySample(),
				options.ttl());
		BatchRecorder.Summary summary = steady.summary();
		boolean complete = summary.records() >= records - PRIMER;
		ok &= complete && verified.ok();
		drainsVerified.add("steady " + verified.text() + (complete ? "" : "; INCOMPLETE (timed out)"));
		status.println(String.format(Locale.ROOT,
				"%-38s steady at %,d records/s (consumed at %,.0f, %,d batches): write P50 %9s P99 %9s max %9s | %s",
				label, rate, summary.recordsPerSecond(), summary.batches(), Durations.ms(summary.write().p50()),
				Durations.ms(summary.write().p99()), Durations.ms(summary.write().max()), verified.text()));
	}

	public Row row() {
		BatchRecorder.Summary busy = BatchRecorder.pooled(drains);
		if (drains.size() > 1) {
			run.note(String.format(Locale.ROOT,
					"%s: %d busy drains at %s records/s, the median %,.0f; write over all %,d batches P50 %s, P99 %s, max %s",
					label, drains.size(),
					busy.drainRates()
						.stream()
						.map(r -> String.format(Locale.ROOT, "%,.0f", r))
						.collect(Collectors.joining(" / ")),
					busy.recordsPerSecond(), busy.write().samples(), Durations.ms(busy.write().p50()),
					Durations.ms(busy.write().p99()), Durations.ms(busy.write().max())));
		}
		return new Row(strategy, endpoint.rtt(), endpoint.cluster(), batch, idle.summary(), busy,
				steady == null ? null : steady.summary(), null, ok,
				"idle " + idleVerified.text() + "; " + String.join("; ", drainsVerified), fullGcs, peakHeap, ceiling);
	}

	public static void await(BatchRecorder recorder, long records, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (recorder.records() < records && System.nanoTime() < deadline) {
			Thread.sleep(20);
		}
	}

	/** Full collections of this JVM so far. */
	static long fullGcs() {
		// G1 (the default) counts only full collections under "G1 Old Generation"; others
		// name theirs similarly
		return ManagementFactory.getGarbageCollectorMXBeans()
			.stream()
			.filter(gc -> gc.getName().contains("Old") || gc.getName().contains("MarkSweep")
					|| gc.getName().contains("Full"))
			.mapToLong(GarbageCollectorMXBean::getCollectionCount)
			.sum();
	}

}
