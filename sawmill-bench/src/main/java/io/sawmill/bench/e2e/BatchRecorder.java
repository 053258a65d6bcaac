package io.sawmill.bench.e2e;

import java.util.Arrays;

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
		return new Summary(count, records, Percentiles.of(durations, count), Percentiles.of(writes, writeCount),
				spanNanos());
	}

	static long percentile(long[] sorted, double p) {
		if (sorted.length == 0) {
			return 0;
		}
		return sorted[Math.max(0, (int) Math.ceil(sorted.length * p) - 1)];
	}

	/**
	 * @param pollToCommit from the return of each batch's poll to its commit
	 * @param write each batch's Redis write (per strategy: see {@link BatchRecorder#recordWrite})
	 */
	record Summary(int batches, long records, Percentiles pollToCommit, Percentiles write, long spanNanos) {

		double recordsPerSecond() {
			return spanNanos == 0 ? 0 : records / (spanNanos / 1e9);
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
