package io.sawmill.bench.e2e;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.LongStream;

/**
 * Per-batch timings of one run: when each batch ended, how long it took from poll to commit, how
 * many records it had, and, separately, how long each batch's Redis write took. Thread-safe
 * (listener threads and Lettuce's event loop record, the status line reads).
 */
final class BatchRecorder {

	private long[] ends = new long[1024];
	private long[] durations = new long[1024];
	private long[] writes = new long[1024];
	private int count;
	private int writeCount;
	private long records;
	private long firstStart = Long.MAX_VALUE;

	/** A batch committed: {@code durationNanos} from the return of its poll to its commit. */
	synchronized void record(long endNanos, long durationNanos, int batchRecords) {
		if (count == ends.length) {
			ends = Arrays.copyOf(ends, count * 2);
			durations = Arrays.copyOf(durations, count * 2);
		}
		ends[count] = endNanos;
		durations[count] = durationNanos;
		count++;
		records += batchRecords;
		firstStart = Math.min(firstStart, endNanos - durationNanos);
	}

	/** A batch's Redis write: its commands sent, every reply arrived. */
	synchronized void recordWrite(long durationNanos) {
		if (writeCount == writes.length) {
			writes = Arrays.copyOf(writes, writeCount * 2);
		}
		writes[writeCount++] = durationNanos;
	}

	synchronized long records() {
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

	synchronized Summary summary() {
		long span = spanNanos();
		return new Summary(count, records, Percentiles.of(durations, count), Percentiles.of(writes, writeCount), span,
				List.of(span == 0 ? 0 : records / (span / 1e9)));
	}

	/**
	 * Several drains of the same backlog as one row: the percentiles over all their batches (so a
	 * P99 over three 1,000-record drains of 500,000 records ranks 1,500 batches, not 500), the
	 * records of all, and the throughput and drain time of the median drain, so that neither the
	 * luckiest nor the unluckiest minute of a shared machine decides the row.
	 */
	static Summary pooled(List<BatchRecorder> drains) {
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
				each.stream().map(Summary::recordsPerSecond).toList());
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
	 * @param write each batch's Redis write (per strategy: see {@link BatchRecorder#recordWrite})
	 * @param spanNanos from the start of the first batch to the end of the last, of the median drain
	 * @param drainRates records per second of each drain, in the order they ran
	 */
	record Summary(int batches, long records, Percentiles pollToCommit, Percentiles write, long spanNanos,
			List<Double> drainRates) {

		Summary {
			drainRates = List.copyOf(drainRates);
		}

		/** The median drain's records per second (of an even number of drains, the lower middle one). */
		double recordsPerSecond() {
			return drainRates.stream().sorted().toList().get((drainRates.size() - 1) / 2);
		}
	}

	/** Nearest-rank percentiles of durations, in nanoseconds; all 0 when there were none. */
	record Percentiles(int samples, long p50, long p99, long max) {

		static Percentiles of(long[] durations, int count) {
			long[] sorted = Arrays.copyOf(durations, count);
			Arrays.sort(sorted);
			return new Percentiles(count, percentile(sorted, 0.5), percentile(sorted, 0.99),
					count == 0 ? 0 : sorted[count - 1]);
		}
	}
}
