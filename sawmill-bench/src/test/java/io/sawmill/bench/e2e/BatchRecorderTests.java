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

		BatchRecorder.Summary summary = recorder.summary();
		assertThat(summary.batches()).isEqualTo(100);
		assertThat(summary.records()).isEqualTo(1_000);
		assertThat(summary.p50()).isEqualTo(50);
		assertThat(summary.p99()).isEqualTo(99);
		assertThat(summary.max()).isEqualTo(100);
		// first batch started at 1,010 - 1, the last ended at 2,000
		assertThat(summary.spanNanos()).isEqualTo(2_000 - 1_009);
	}
}
