package io.sawmill.bench.e2e;

import java.util.Arrays;

/**
 * Per-batch timings of one run: when each batch ended, how long it took from poll to commit, and how
 * many records it had. Thread-safe (listener threads record, the status line reads).
 */
final class BatchRecorder {

	private long[] ends = new long[1024];
	private long[] durations = new long[1024];
	private int count;
	private long records;
	private long firstStart = Long.MAX_VALUE;

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
		long[] sorted = Arrays.copyOf(durations, count);
		Arrays.sort(sorted);
		return new Summary(count, records, percentile(sorted, 0.5), percentile(sorted, 0.99),
				count == 0 ? 0 : sorted[count - 1], spanNanos());
	}

	static long percentile(long[] sorted, double p) {
		if (sorted.length == 0) {
			return 0;
		}
		return sorted[Math.max(0, (int) Math.ceil(sorted.length * p) - 1)];
	}

	/** Nearest-rank percentiles of the per-batch durations, in nanoseconds. */
	record Summary(int batches, long records, long p50, long p99, long max, long spanNanos) {

		double recordsPerSecond() {
			return spanNanos == 0 ? 0 : records / (spanNanos / 1e9);
		}
	}
}
