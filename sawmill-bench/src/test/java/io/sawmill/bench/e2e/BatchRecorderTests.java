package io.sawmill.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class BatchRecorderTests {

	@Test
	void shouldReportNearestRankPercentilesAndTheSpanFromFirstStartToLastEnd() {
		BatchRecorder recorder = new BatchRecorder();
		for (int i = 1; i <= 100; i++) {
			recorder.record(1_000 + i * 10L, i, 10);
		}
		for (int i = 1; i <= 200; i++) {
			recorder.recordWrite(1_000 - i);
		}

		BatchRecorder.Summary summary = recorder.summary();
		assertThat(summary.batches()).isEqualTo(100);
		assertThat(summary.records()).isEqualTo(1_000);
		assertThat(summary.pollToCommit()).isEqualTo(new BatchRecorder.Percentiles(100, 50, 99, 100));
		// the writes are counted apart from the batches: a retried batch writes twice
		assertThat(summary.write()).isEqualTo(new BatchRecorder.Percentiles(200, 899, 997, 999));
		// first batch started at 1,010 - 1, the last ended at 2,000
		assertThat(summary.spanNanos()).isEqualTo(2_000 - 1_009);
	}

	@Test
	void shouldPoolThePercentilesOfSeveralDrainsAndTakeTheThroughputOfTheMedianOne() {
		// three drains of 1,000 records in 10 batches: in 1 s, 4 s and 2 s
		List<BatchRecorder> drains = List.of(drain(1_000_000_000L, 1), drain(4_000_000_000L, 2), drain(2_000_000_000L, 3));

		BatchRecorder.Summary pooled = BatchRecorder.pooled(drains);

		assertThat(pooled.batches()).isEqualTo(30);
		assertThat(pooled.records()).isEqualTo(3_000);
		assertThat(pooled.drainRates()).containsExactly(1_000.0, 250.0, 500.0);
		// the median drain (2 s) gives the row its throughput and its drain time
		assertThat(pooled.recordsPerSecond()).isEqualTo(500.0);
		assertThat(pooled.spanNanos()).isEqualTo(2_000_000_000L);
		// the writes of all three, ranked together: 1..10, 2..20 and 3..30 ms
		assertThat(pooled.write().samples()).isEqualTo(30);
		assertThat(pooled.write().max()).isEqualTo(30_000_000L);
		assertThat(pooled.write().p50()).isEqualTo(9_000_000L);
	}

	@Test
	void shouldLeaveASingleDrainAsItIs() {
		BatchRecorder drain = drain(1_000_000_000L, 1);

		assertThat(BatchRecorder.pooled(List.of(drain))).isEqualTo(drain.summary());
		assertThat(drain.summary().recordsPerSecond()).isEqualTo(1_000.0);
	}

	/** 10 batches of 100 records back to back over {@code spanNanos}; batch i wrote in i × {@code factor} ms. */
	private static BatchRecorder drain(long spanNanos, int factor) {
		BatchRecorder recorder = new BatchRecorder();
		long each = spanNanos / 10;
		for (int i = 1; i <= 10; i++) {
			recorder.record(i * each, each, 100);
			recorder.recordWrite(i * factor * 1_000_000L);
		}
		return recorder;
	}
}
