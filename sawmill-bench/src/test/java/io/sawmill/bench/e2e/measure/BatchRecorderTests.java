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

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Deque;
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
		List<BatchRecorder> drains = List.of(drain(1_000_000_000L, 1), drain(4_000_000_000L, 2),
				drain(2_000_000_000L, 3));

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

	@Test
	void shouldMeasureTheCpuPerRecordFromTheFirstBatchToTheBatchThatCompletesTheExpectedRecords() {
		// the consumer's CPU clock as the recorder reads it: at the first batch, then at
		// the 10th
		Deque<Long> cpu = new ArrayDeque<>(List.of(5_000_000L, 7_700_000L));
		BatchRecorder recorder = new BatchRecorder(cpu::removeFirst, 1_000);

		for (int i = 1; i <= 10; i++) {
			assertThat(recorder.cpuPerRecord()).isEmpty();
			recorder.record(i * 1_000L, 1_000, 100);
		}
		recorder.record(11_000L, 1_000, 100);

		// 2.7 ms over the 900 records after the first batch; a batch after the expected
		// records reads no clock
		assertThat(recorder.cpuPerRecord()).containsExactly(3_000.0);
		assertThat(recorder.summary().cpuNanosPerRecord()).isEqualTo(3_000.0);
		assertThat(cpu).isEmpty();
	}

	@Test
	void shouldTakeTheMedianCpuPerRecordOfSeveralDrainsAndNaNWhenNoneMeasuredIt() {
		List<BatchRecorder> drains = List.of(drainWithCpu(4_000), drainWithCpu(1_000), drainWithCpu(2_000));

		assertThat(BatchRecorder.pooled(drains).cpuPerRecord()).containsExactly(4_000.0, 1_000.0, 2_000.0);
		assertThat(BatchRecorder.pooled(drains).cpuNanosPerRecord()).isEqualTo(2_000.0);
		assertThat(drain(1_000_000_000L, 1).summary().cpuNanosPerRecord()).isNaN();
	}

	@Test
	void shouldForgetEverythingOnRestart() {
		BatchRecorder recorder = drain(1_000_000_000L, 1);

		recorder.restart();
		recorder.record(5_000, 1_000, 7);

		assertThat(recorder.records()).isEqualTo(7);
		assertThat(recorder.summary().write().samples()).isZero();
		assertThat(recorder.summary().pollToCommit().samples()).isEqualTo(1);
		assertThat(recorder.spanNanos()).isEqualTo(1_000);
	}

	/**
	 * Two batches of 100 records; the consumer's CPU clock advances by 100 ×
	 * {@code perRecord} between them.
	 */
	private static BatchRecorder drainWithCpu(long perRecord) {
		Deque<Long> cpu = new ArrayDeque<>(List.of(0L, 100 * perRecord));
		BatchRecorder recorder = new BatchRecorder(cpu::removeFirst, 200);
		recorder.record(1_000, 1_000, 100);
		recorder.record(2_000, 1_000, 100);
		return recorder;
	}

	/**
	 * 10 batches of 100 records back to back over {@code spanNanos}; batch i wrote in i ×
	 * {@code factor} ms.
	 */
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
