package io.sawmill.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

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
}
