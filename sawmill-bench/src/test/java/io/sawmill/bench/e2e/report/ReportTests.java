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
package io.sawmill.bench.e2e.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.sawmill.bench.e2e.measure.BatchRecorder;
import io.sawmill.bench.e2e.measure.RedisCeiling;

/**
 * The targets and the table compare each row with the Redis ceiling measured next to it.
 */
class ReportTests {

	/** 200,000 records/s: HSET and EXPIRE at 400,000/s each. */
	private static final RedisCeiling.Result OPENING = new RedisCeiling.Result(400_000, 400_000, "opening");

	/** 100,000 records/s, measured right before the row. */
	private static final RedisCeiling.Result NEXT_TO_IT = new RedisCeiling.Result(200_000, 200_000, "next to it");

	private static final BatchRecorder.Percentiles POLL_TO_COMMIT = new BatchRecorder.Percentiles(500, 12_000_000,
			30_000_000, 40_000_000);

	private static final BatchRecorder.Percentiles WRITE = new BatchRecorder.Percentiles(500, 6_000_000, 14_000_000,
			20_000_000);

	/**
	 * 1,000-record batches, 70,000 records/s: 500,000 records in 7.14 s, 2 µs of CPU per
	 * record.
	 */
	private static Row sawmill(RedisCeiling.Result ceiling) {
		return row("sawmill", 0, false, 1_000, drains(List.of(70_000.0), 2_000), null, ceiling);
	}

	private static BatchRecorder.Summary drains(List<Double> rates, double cpuPerRecord) {
		return new BatchRecorder.Summary(500 * rates.size(), 500_000L * rates.size(), POLL_TO_COMMIT, WRITE,
				7_142_857_143L, rates, rates.stream().map(rate -> cpuPerRecord).toList());
	}

	/** A steady run whose writes had {@code p99Millis} as their P99. */
	private static BatchRecorder.Summary steady(long p99Millis) {
		return new BatchRecorder.Summary(300, 150_000, POLL_TO_COMMIT,
				new BatchRecorder.Percentiles(300, 1_000_000, p99Millis * 1_000_000, 2 * p99Millis * 1_000_000),
				4_000_000_000L, List.of(34_000.0), List.of());
	}

	private static Row row(String strategy, double rtt, boolean cluster, int batch, BatchRecorder.Summary busy,
			BatchRecorder.Summary steady, RedisCeiling.Result ceiling) {
		return new Row(strategy, rtt, cluster, batch, null, busy, steady, null, true, "OK", 0, 100 << 20, ceiling);
	}

	@Test
	void shouldJudgeTheShareOfTheCeilingAgainstTheCeilingMeasuredNextToTheRow() {
		List<String> targets = Report.targets(List.of(sawmill(NEXT_TO_IT)), OPENING);

		assertThat(targets).anySatisfy(line -> assertThat(line)
			.startsWith("MET     Sawmill ≥ 0.6 × Redis ceiling (batch 1,000 at direct): 70,000 / 100,000 = 0.70")
			.contains("against the run's opening ceiling 200,000: 0.35"));
		// the busy P99 is reported against the same bound, 1.5 × 1,000 ÷ 100,000 = 15 ms,
		// but no longer judged
		assertThat(targets).anySatisfy(line -> assertThat(line).startsWith("INFO    busy per-batch write P99")
			.contains("14.0 ms vs 15.0 ms")
			.contains("poll→commit P99: 30.0 ms"));
	}

	@Test
	void shouldFallBackToTheOpeningCeilingWhenNoneWasMeasuredNextToTheRow() {
		List<String> targets = Report.targets(List.of(sawmill(null)), OPENING);

		assertThat(targets).anySatisfy(line -> assertThat(line)
			.startsWith("NOT MET Sawmill ≥ 0.6 × Redis ceiling (batch 1,000 at direct): 70,000 / 200,000 = 0.35")
			.endsWith("(the run's opening ceiling)"));
		assertThat(Report.markdownTable(List.of(sawmill(null)), OPENING, 500_000))
			.contains("| 200,000 (opening) | 0.35 |");
		assertThat(Report.markdownTable(List.of(sawmill(NEXT_TO_IT)), OPENING, 500_000)).contains(
				"| 6.0 ms | 14.0 ms | 20.0 ms | 12.0 ms | 30.0 ms | n/a | n/a | 70,000 | 2.00 µs | 100,000 | 0.70 |");
	}

	@Test
	void shouldJudgeTheRttTargetOnTheMedianOfTheAlternatingPairsAndPrintTheirSpread() {
		// drain 1 of each cell ran right after its idle load, apart; drains 2-6 ran in
		// pairs
		Row direct = row("sawmill", 0, false, 1_000,
				drains(List.of(70_000.0, 100_000.0, 100_000.0, 100_000.0, 100_000.0, 100_000.0), 2_000), null,
				NEXT_TO_IT);
		Row oneMs = row("sawmill", 1, false, 1_000,
				drains(List.of(50_000.0, 95_000.0, 80_000.0, 92_000.0, 99_000.0, 85_000.0), 2_000), null, NEXT_TO_IT);

		// the pairs' ratios 0.95 0.80 0.92 0.99 0.85 have the median 0.92; the medians of
		// all drains only 0.85
		assertThat(Report.targets(List.of(direct, oneMs), OPENING))
			.contains("MET     Sawmill at 1 ms keeps ≥ 0.9 × its "
					+ "direct throughput, median of ≥ 5 alternating pairs of drains (batch 1,000): 0.92 over 5 pairs "
					+ "(spread 0.80–0.99: 0.95 0.80 0.92 0.99 0.85); medians of all drains 85,000 / 100,000 = 0.85");
		assertThat(Report.markdownTable(List.of(oneMs), OPENING, 500_000))
			.contains("| 85,000 (median of 6) | 2.00 µs |");
		assertThat(Report.csv(List.of(oneMs)).lines().skip(1).findFirst().orElseThrow())
			.contains(",100000,50000 95000 80000 92000 99000 85000,false,2.000,2.000 2.000 2.000 2.000 2.000 2.000,");
	}

	@Test
	void shouldNotJudgeTheRttTargetOnFewerThanFivePairs() {
		Row direct = row("sawmill", 0, false, 1_000, drains(List.of(70_000.0, 100_000.0, 100_000.0), 2_000), null,
				NEXT_TO_IT);
		Row oneMs = row("sawmill", 1, false, 1_000, drains(List.of(50_000.0, 95_000.0, 98_000.0), 2_000), null,
				NEXT_TO_IT);

		assertThat(Report.targets(List.of(direct, oneMs), OPENING)).anySatisfy(
				line -> assertThat(line).startsWith("INFO    Sawmill at 1 ms keeps ≥ 0.9 × its direct throughput")
					.contains("not judged, 2 pairs (--rtt-pairs); medians of all drains 95,000 / 100,000 = 0.95"));
	}

	@Test
	void shouldJudgeSawmillsCpuPerRecordAgainstTheTemplateLoopsAtTheSameEndpointAndBatchSize() {
		Row template = row("template", 0, false, 1_000, drains(List.of(20_000.0), 10_000), null, NEXT_TO_IT);

		assertThat(Report.targets(List.of(template, sawmill(NEXT_TO_IT)), OPENING))
			.contains("MET     Sawmill's CPU per record ≤ 0.5 × executePipelined's (batch 1,000 at direct): "
					+ "2.00 µs / 10.00 µs = 0.20")
			.contains("MET     Sawmill ≥ 2 × executePipelined (batch 1,000 at direct): 70,000 / 20,000 = 3.50");
	}

	@Test
	void shouldJudgeTheClusterAgainstTheStandaloneServerDirectlyAndNotAgainstTheSingleServersCeiling() {
		Row cluster = row("sawmill", 0, true, 1_000, drains(List.of(35_000.0), 7_000), null, null);
		Row template = row("template", 0, false, 1_000, drains(List.of(20_000.0), 10_000), null, NEXT_TO_IT);

		List<String> targets = Report.targets(List.of(template, sawmill(NEXT_TO_IT), cluster), OPENING);

		assertThat(targets).contains(
				"NOT MET cluster CPU per record ≤ 1.3 × standalone's (batch 1,000, both direct): 7.00 µs / 2.00 µs = 3.50")
			.contains(
					"NOT MET cluster records/s ≥ 0.9 × standalone's (batch 1,000, both direct): 35,000 / 70,000 = 0.50");
		assertThat(targets.stream().filter(line -> line.contains("at cluster")))
			.noneMatch(line -> line.contains("Redis ceiling") || line.contains("executePipelined"));
		assertThat(Report.markdownTable(List.of(cluster), OPENING, 500_000)).contains("| sawmill | cluster | 1,000 |")
			.contains("| 35,000 | 7.00 µs | n/a | n/a |");
	}

	@Test
	void shouldJudgeTheSteadyWriteP99AtBatches1000And5000Only() {
		// batch 1,000 direct: 1.5 × 1,000 ÷ 100,000 + 1 ms = 16 ms; batch 5,000 at 1 ms:
		// 1.5 × (1 + 50) + 1 = 77.5 ms
		Row small = row("sawmill", 0, false, 1_000, drains(List.of(70_000.0), 2_000), steady(4), NEXT_TO_IT);
		Row middle = row("sawmill", 1, false, 5_000, drains(List.of(68_000.0), 2_000), steady(90), NEXT_TO_IT);
		Row large = row("sawmill", 0, false, 10_000, drains(List.of(70_000.0), 2_000), steady(900), NEXT_TO_IT);

		List<String> targets = Report.targets(List.of(small, middle, large), OPENING);

		assertThat(targets).anySatisfy(line -> assertThat(line).startsWith(
				"MET     steady per-batch write P99 ≤ 1.5 × (RTT + commands ÷ ceiling) + 1 ms (batch 1,000 at direct; "
						+ "producer at half of 70,000 records/s, consumed at 34,000, 300 batches)")
			.endsWith(": 4.0 ms vs 16.0 ms"));
		assertThat(targets).anySatisfy(line -> assertThat(line).startsWith("NOT MET steady per-batch write P99")
			.contains("(batch 5,000 at 1 ms;")
			.endsWith(": 90.0 ms vs 77.5 ms"));
		assertThat(targets).noneMatch(line -> line.contains("steady") && line.contains("batch 10,000"));
		assertThat(Report.markdownTable(List.of(small), OPENING, 500_000)).contains("| 1.0 ms | 4.0 ms | 70,000 |");
	}

}
