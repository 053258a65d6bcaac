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

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.LongStream;

/**
 * Per-batch timings of one run: when each batch ended, how long it took from poll to
 * commit, how many records it had, and, separately, how long each batch's Redis write
 * took. Measuring CPU, it also reads the consumer's CPU time when the first batch commits
 * and when the batch that completes the expected records commits: the CPU per record
 * between them leaves out the consumer's start-up and group join, as the throughput does,
 * and at the same two moments each kind of thread's CPU time ({@link ThreadCpu}) for the
 * split of that CPU per record. Thread-safe (listener threads and Lettuce's event loop
 * record, the status line reads).
 */
public final class BatchRecorder {

	private final LongSupplier cpu;

	private final long expected;

	private long cpuAtFirst = -1;

	private long recordsAtFirst;

	private long cpuAtExpected = -1;

	private long recordsAtExpected;

	private ThreadCpu threadsAtFirst;

	private Map<ThreadCpu.Kind, Long> threadsUsed = Map.of();

	private long[] ends = new long[1024];

	private long[] durations = new long[1024];

	private long[] writes = new long[1024];

	private int count;

	private int writeCount;

	private long records;

	private long firstStart = Long.MAX_VALUE;

	/** Records timings only. */
	public BatchRecorder() {
		this(null, 0);
	}

	/**
	 * Also measures the consumer's CPU per record.
	 * @param cpu the consumer's CPU time so far, in nanoseconds (see
	 * {@link ConsumerCpu#nanos()})
	 * @param expected the records of the run: the batch that reaches them closes the
	 * measured span
	 */
	public BatchRecorder(LongSupplier cpu, long expected) {
		this.cpu = cpu;
		this.expected = expected;
	}

	/**
	 * A batch committed: {@code durationNanos} from the return of its poll to its commit.
	 */
	public synchronized void record(long endNanos, long durationNanos, int batchRecords) {
		if (count == ends.length) {
			ends = Arrays.copyOf(ends, count * 2);
			durations = Arrays.copyOf(durations, count * 2);
		}
		ends[count] = endNanos;
		durations[count] = durationNanos;
		count++;
		records += batchRecords;
		firstStart = Math.min(firstStart, endNanos - durationNanos);
		if (cpu != null && cpuAtFirst < 0) {
			cpuAtFirst = cpu.getAsLong();
			recordsAtFirst = records;
			threadsAtFirst = ThreadCpu.now();
		}
		else if (cpu != null && cpuAtExpected < 0 && records >= expected) {
			cpuAtExpected = cpu.getAsLong();
			recordsAtExpected = records;
			threadsUsed = ThreadCpu.now().since(threadsAtFirst);
		}
	}

	/**
	 * The consumer's CPU nanoseconds per record after its first batch, or empty when not
	 * (yet) measured.
	 */
	synchronized List<Double> cpuPerRecord() {
		if (cpuAtExpected < 0 || recordsAtExpected <= recordsAtFirst) {
			return List.of();
		}
		return List.of((cpuAtExpected - cpuAtFirst) / (double) (recordsAtExpected - recordsAtFirst));
	}

	/**
	 * The CPU per record split by kind of thread ({@link ThreadCpu#split}) in parentheses
	 * after a space, " (listener …, Redis I/O …, GC …, rest … µs)", or nothing when not
	 * (yet) measured.
	 */
	public synchronized String cpuSplit() {
		List<Double> perRecord = cpuPerRecord();
		String split = perRecord.isEmpty() ? ""
				: ThreadCpu.split(threadsUsed, recordsAtExpected - recordsAtFirst, perRecord.get(0));
		return split.isEmpty() ? "" : " (" + split + ")";
	}

	/** Forgets every batch recorded so far, as if none had been. */
	public synchronized void restart() {
		count = 0;
		writeCount = 0;
		records = 0;
		firstStart = Long.MAX_VALUE;
		cpuAtFirst = -1;
		cpuAtExpected = -1;
		threadsUsed = Map.of();
	}

	/** A batch's Redis write: its commands sent, every reply arrived. */
	public synchronized void recordWrite(long durationNanos) {
		if (writeCount == writes.length) {
			writes = Arrays.copyOf(writes, writeCount * 2);
		}
		writes[writeCount++] = durationNanos;
	}

	public synchronized long records() {
		return records;
	}

	synchronized int batches() {
		return count;
	}

	/** From the start of the first batch to the end of the last one. */
	synchronized long spanNanos() {
		if (count == 0) {
			return 0;
		}
		long lastEnd = Arrays.stream(ends, 0, count).max().getAsLong();
		return lastEnd - firstStart;
	}

	public synchronized Summary summary() {
		long span = spanNanos();
		return new Summary(count, records, Percentiles.of(durations, count), Percentiles.of(writes, writeCount), span,
				List.of(span == 0 ? 0 : records / (span / 1e9)), cpuPerRecord());
	}

	/**
	 * Several drains of the same backlog as one row: the percentiles over all their
	 * batches (so a P99 over three 1,000-record drains of 500,000 records ranks 1,500
	 * batches, not 500), the records of all, and the throughput and drain time of the
	 * median drain, so that neither the luckiest nor the unluckiest minute of a shared
	 * machine decides the row; likewise each drain's CPU per record.
	 */
	public static Summary pooled(List<BatchRecorder> drains) {
		if (drains.isEmpty()) {
			throw new IllegalArgumentException("no drains to pool");
		}
		List<Summary> each = drains.stream().map(BatchRecorder::summary).toList();
		if (each.size() == 1) {
			return each.get(0);
		}
		long[] durations = drains.stream().flatMapToLong(BatchRecorder::durations).toArray();
		long[] writes = drains.stream().flatMapToLong(BatchRecorder::writes).toArray();
		Summary median = each.stream()
			.sorted(Comparator.comparingDouble(Summary::recordsPerSecond))
			.toList()
			.get((each.size() - 1) / 2);
		return new Summary(each.stream().mapToInt(Summary::batches).sum(),
				each.stream().mapToLong(Summary::records).sum(), Percentiles.of(durations, durations.length),
				Percentiles.of(writes, writes.length), median.spanNanos(),
				each.stream().map(Summary::recordsPerSecond).toList(),
				each.stream().flatMap(summary -> summary.cpuPerRecord().stream()).toList());
	}

	private synchronized LongStream durations() {
		return Arrays.stream(Arrays.copyOf(durations, count));
	}

	private synchronized LongStream writes() {
		return Arrays.stream(Arrays.copyOf(writes, writeCount));
	}

	static long percentile(long[] sorted, double p) {
		if (sorted.length == 0) {
			return 0;
		}
		return sorted[Math.max(0, (int) Math.ceil(sorted.length * p) - 1)];
	}

	/**
	 * @param batches batches of all drains
	 * @param records records of all drains
	 * @param pollToCommit from the return of each batch's poll to its commit
	 * @param write each batch's Redis write (per strategy: see
	 * {@link BatchRecorder#recordWrite})
	 * @param spanNanos from the start of the first batch to the end of the last, of the
	 * median drain
	 * @param drainRates records per second of each drain, in the order they ran
	 * @param cpuPerRecord the consumer's CPU nanoseconds per record of each drain that
	 * measured it
	 */
	public record Summary(int batches, long records, Percentiles pollToCommit, Percentiles write, long spanNanos,
			List<Double> drainRates, List<Double> cpuPerRecord) {

		public Summary {
			drainRates = List.copyOf(drainRates);
			cpuPerRecord = List.copyOf(cpuPerRecord);
		}

		/**
		 * The median drain's records per second (of an even number of drains, the lower
		 * middle one).
		 */
		public double recordsPerSecond() {
			return median(drainRates);
		}

		/**
		 * The median of the drains' CPU nanoseconds per record, NaN when none measured
		 * it.
		 */
		public double cpuNanosPerRecord() {
			return cpuPerRecord.isEmpty() ? Double.NaN : median(cpuPerRecord);
		}
	}

	/** The median (of an even number, the lower middle one). */
	public static double median(List<Double> values) {
		return values.stream().sorted().toList().get((values.size() - 1) / 2);
	}

	/**
	 * Nearest-rank percentiles of durations, in nanoseconds; all 0 when there were none.
	 */
	public record Percentiles(int samples, long p50, long p99, long max) {

		static Percentiles of(long[] durations, int count) {
			long[] sorted = Arrays.copyOf(durations, count);
			Arrays.sort(sorted);
			return new Percentiles(count, percentile(sorted, 0.5), percentile(sorted, 0.99),
					count == 0 ? 0 : sorted[count - 1]);
		}
	}

}
