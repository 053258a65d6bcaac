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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import io.sawmill.bench.e2e.measure.BatchRecorder;
import io.sawmill.bench.e2e.measure.CommandStats;
import io.sawmill.bench.e2e.measure.ConsumerCpu;
import io.sawmill.bench.e2e.measure.Verification;
import io.sawmill.bench.e2e.report.Durations;
import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.bench.e2e.workload.Workload;
import io.sawmill.testkit.KafkaBrokerProcess;

/**
 * The drains of a comparison of Sawmill variants ({@link CapabilityComparison},
 * {@link RouteComparison}): a variant is a label and the Spring properties added to the
 * Sawmill cell's. One drain goes into a flushed Redis with a new consumer group; Redis'
 * command counts are reset before it and read after it ({@link CommandStats}), and it is
 * verified after. A variant that cannot start is remembered: <em>not available</em> when
 * Sawmill refused one of its properties as unknown (a build without it), <em>failed</em>
 * otherwise; neither is drained again. Called from the benchmark's main thread only.
 */
final class VariantDrainer {

	private final Cell.Run run;

	private final BenchOptions options;

	private final KafkaBrokerProcess kafka;

	/** "capabilities" or "routes": the prefix of status lines and notes. */
	private final String comparison;

	private final Map<String, String> unavailable = new LinkedHashMap<>();

	private final Map<String, String> failed = new LinkedHashMap<>();

	VariantDrainer(Cell.Run run, KafkaBrokerProcess kafka, String comparison) {
		this.run = run;
		this.options = run.options();
		this.kafka = kafka;
		this.comparison = comparison;
	}

	/**
	 * Whether the variant may still be drained (it neither lacked a property nor failed).
	 */
	boolean runs(String variant) {
		return !unavailable.containsKey(variant) && !failed.containsKey(variant);
	}

	/**
	 * Whether the variant could not start because this build does not know one of its
	 * properties.
	 */
	boolean unavailable(String variant) {
		return unavailable.containsKey(variant);
	}

	/** Whether the variant failed (to start, or its warm-up). */
	boolean failed(String variant) {
		return failed.containsKey(variant);
	}

	/** Why the variant does not run, or null. */
	String whyNot(String variant) {
		return unavailable.containsKey(variant) ? unavailable.get(variant) : failed.get(variant);
	}

	/**
	 * One busy drain of the whole backlog of {@code topic}, recorded into {@code cell}:
	 * nothing when the variant did not start (then it is marked, see the class).
	 * @param label the drain's status line, e.g. "routes: hash, RTT direct, batch 1,000
	 * (drain 1 of 3)"
	 * @param verify reads Redis back after the drain
	 */
	void drain(String variant, Map<String, String> properties, String topic, String group, int batch, Endpoint endpoint,
			String label, Supplier<Verification.Result> verify, Drains cell) throws Exception {
		Verification.flushAll(endpoint);
		BatchRecorder busy = new BatchRecorder(ConsumerCpu::nanos, options.backlog());
		CommandStats.Counts counts;
		long fullGcsBefore = Cell.fullGcs();
		run.status().step(label, options.backlog(), busy::records);
		try (CommandStats stats = CommandStats.reset(endpoint)) {
			if (!consume(variant, properties, topic, group, batch, endpoint, busy, options.backlog(),
					Duration.ofMinutes(options.quick() ? 2 : 6))) {
				return;
			}
			counts = stats.read();
		}
		cell.fullGcs += Cell.fullGcs() - fullGcsBefore;
		cell.peakHeap = Math.max(cell.peakHeap, run.status().peakHeapBytes());
		Verification.Result verified = verify.get();
		BatchRecorder.Summary summary = busy.summary();
		boolean complete = summary.records() >= options.backlog();
		cell.add(busy, counts, verified.ok() && complete, "drain " + (cell.busy.size() + 1) + " " + verified.text()
				+ (complete ? "" : "; INCOMPLETE (timed out)"));
		run.status()
			.println(String.format(Locale.ROOT,
					"%-62s %,9.0f records/s, %.2f Redis commands per record (%s), write P50 %s P99 %s, %s CPU per record%s | %s",
					label, summary.recordsPerSecond(), counts.perRecord(options.backlog()),
					counts.perRecordByCommand(options.backlog()), Durations.ms(summary.write().p50()),
					Durations.ms(summary.write().p99()), Durations.micros(summary.cpuNanosPerRecord()), busy.cpuSplit(),
					verified.text()));
	}

	/**
	 * Each variant drains {@code records} of {@code topic} once, unreported, so that its
	 * code is compiled before it is measured; this also finds the variants this build
	 * does not know before any backlog is drained. A variant that does not drain them in
	 * 2 minutes is marked failed.
	 * @param variants the properties of each variant, by label
	 */
	void warmUp(Map<String, Map<String, String>> variants, String topic, long records, Endpoint endpoint)
			throws Exception {
		for (Map.Entry<String, Map<String, String>> variant : variants.entrySet()) {
			String name = variant.getKey();
			Verification.flushAll(endpoint);
			BatchRecorder recorder = new BatchRecorder();
			run.status().step(comparison + ": warm-up " + name, records, recorder::records);
			if (consume(name, variant.getValue(), topic, comparison + "-warm-up-" + name, options.batchSizes().get(0),
					endpoint, recorder, records, Duration.ofMinutes(2)) && recorder.records() < records) {
				failed.put(name, "FAILED: the warm-up drain consumed " + recorder.records() + " of " + records
						+ " records in 2 min");
				run.note(comparison + ": " + name + ": " + failed.get(name));
			}
		}
		Verification.flushAll(endpoint);
	}

	/**
	 * Creates {@code topic}, produces {@code records} of {@code workload} into it and
	 * notes the keys they write.
	 */
	void produce(String topic, Workload workload, long records, String what) throws Exception {
		kafka.createTopic(topic, options.partitions());
		AtomicLong produced = new AtomicLong();
		run.status().step(comparison + ": producing the " + topic + " " + what, records, produced::get);
		Producing.produce(kafka.bootstrapServers(), topic, workload, records, 0, produced::set);
		Workload.Written written = workload.written(records);
		run.note(String.format(Locale.ROOT,
				"%s: %s %s of %,d versioned records writes %,d keys; the hottest, %s, %,d times (%.1f %%)", comparison,
				topic, what, records, written.keys(), workload.key(written.hottest()), written.hottestRecords(),
				100.0 * written.hottestRecords() / records));
	}

	/**
	 * Runs the variant's consumer until {@code records} are recorded or the timeout: true
	 * when it started, else it is marked (see the class) and noted.
	 */
	private boolean consume(String variant, Map<String, String> properties, String topic, String group, int batch,
			Endpoint endpoint, BatchRecorder recorder, long records, Duration timeout) throws Exception {
		SawmillRunner consumer;
		try {
			consumer = new SawmillRunner(kafka.bootstrapServers(), topic, group, batch, endpoint, options.ttl(),
					properties, recorder);
		}
		catch (RuntimeException ex) {
			String unknown = unknownPropertyIn(properties, ex);
			if (unknown != null) {
				unavailable.put(variant, "not available in this build (unknown property " + unknown + ")");
				run.note(comparison + ": " + variant + " " + properties + ": not available in this build, "
						+ "Sawmill refused the unknown property " + unknown + "; not measured");
			}
			else {
				String why = String.valueOf(ex.getMessage()).lines().findFirst().orElse(ex.toString());
				failed.put(variant, "FAILED: Sawmill did not start with " + properties + ": " + why);
				run.note(
						comparison + ": " + variant + ": FAILED, Sawmill did not start with " + properties + ": " + ex);
			}
			return false;
		}
		try (consumer) {
			Cell.await(recorder, records, timeout);
		}
		return true;
	}

	/**
	 * The one of {@code properties} that the app did not know, when that is why it could
	 * not start (Sawmill fails start-up on an unknown {@code sawmill.*} property: a build
	 * without the variant's feature), else null.
	 */
	static String unknownPropertyIn(Map<String, String> properties, Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
			String message = String.valueOf(cause.getMessage());
			for (String property : properties.keySet()) {
				if (message.contains("Unknown property " + property + ";")
						|| message.endsWith("Unknown property " + property)) {
					return property;
				}
			}
		}
		return null;
	}

	/** The drains of one cell so far. */
	static final class Drains {

		private final List<BatchRecorder> busy = new ArrayList<>();

		private final List<CommandStats.Counts> counts = new ArrayList<>();

		private final List<String> verified = new ArrayList<>();

		private boolean ok = true;

		private long fullGcs;

		private long peakHeap;

		void add(BatchRecorder recorder, CommandStats.Counts drained, boolean good, String verification) {
			busy.add(recorder);
			counts.add(drained);
			verified.add(verification);
			ok &= good;
		}

		boolean isEmpty() {
			return busy.isEmpty();
		}

		/** Every drain's batches, pooled. */
		BatchRecorder.Summary pooled() {
			return BatchRecorder.pooled(busy);
		}

		/** Per drain, the Redis commands counted over it ÷ {@code records}. */
		List<Double> commandsPerRecord(long records) {
			return counts.stream().map(drained -> drained.perRecord(records)).toList();
		}

		/** The counts of the median drain by commands per record. */
		CommandStats.Counts medianCounts() {
			return counts.stream()
				.sorted(Comparator.comparingLong(CommandStats.Counts::total))
				.toList()
				.get((counts.size() - 1) / 2);
		}

		/** Whether every drain verified and ran to the end. */
		boolean ok() {
			return ok;
		}

		/** Each drain's verification, joined. */
		String verification() {
			return String.join("; ", verified);
		}

		long fullGcs() {
			return fullGcs;
		}

		long peakHeap() {
			return peakHeap;
		}

	}

}
