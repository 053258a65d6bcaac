package io.sawmill.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The targets and the table compare each row with the Redis ceiling measured next to it. */
class ReportTests {

	/** 200,000 records/s: HSET and EXPIRE at 400,000/s each. */
	private static final RedisCeiling.Result OPENING = new RedisCeiling.Result(400_000, 400_000, "opening");

	/** 100,000 records/s, measured right before the row. */
	private static final RedisCeiling.Result NEXT_TO_IT = new RedisCeiling.Result(200_000, 200_000, "next to it");

	/** 1,000-record batches, 70,000 records/s: 500,000 records in 7.14 s. */
	private static Row sawmill(RedisCeiling.Result ceiling) {
		BatchRecorder.Summary busy = new BatchRecorder.Summary(500, 500_000,
				new BatchRecorder.Percentiles(500, 12_000_000, 30_000_000, 40_000_000),
				new BatchRecorder.Percentiles(500, 6_000_000, 14_000_000, 20_000_000), 7_142_857_143L, List.of(70_000.0));
		return new Row("sawmill", 0, 1_000, null, busy, null, true, "OK", 0, 100 << 20, ceiling);
	}

	@Test
	void shouldJudgeTheShareOfTheCeilingAgainstTheCeilingMeasuredNextToTheRow() {
		List<String> targets = Report.targets(List.of(sawmill(NEXT_TO_IT)), OPENING);

		assertThat(targets).anySatisfy(line -> assertThat(line)
			.startsWith("MET     Sawmill ≥ 0.6 × Redis ceiling (batch 1,000 at direct): 70,000 / 100,000 = 0.70")
			.contains("against the run's opening ceiling 200,000: 0.35"));
		// the P99 bound uses the same ceiling, 1.5 × 1,000 ÷ 100,000 = 15 ms, and judges the write's P99
		assertThat(targets).anySatisfy(line -> assertThat(line)
			.startsWith("MET     busy per-batch write P99")
			.contains("14.0 ms vs 15.0 ms")
			.contains("poll→commit P99, not judged: 30.0 ms"));
	}

	@Test
	void shouldFallBackToTheOpeningCeilingWhenNoneWasMeasuredNextToTheRow() {
		List<String> targets = Report.targets(List.of(sawmill(null)), OPENING);

		assertThat(targets).anySatisfy(line -> assertThat(line)
			.startsWith("NOT MET Sawmill ≥ 0.6 × Redis ceiling (batch 1,000 at direct): 70,000 / 200,000 = 0.35")
			.endsWith("(the run's opening ceiling)"));
		assertThat(Report.markdownTable(List.of(sawmill(null)), OPENING, 500_000)).contains("| 200,000 (opening) | 0.35 |");
		assertThat(Report.markdownTable(List.of(sawmill(NEXT_TO_IT)), OPENING, 500_000))
			.contains("| 6.0 ms | 14.0 ms | 20.0 ms | 12.0 ms | 30.0 ms | 70,000 | 100,000 | 0.70 |");
	}

	@Test
	void shouldJudgeAndShowTheMedianOfSeveralDrains() {
		Row direct = sawmill(NEXT_TO_IT);
		BatchRecorder.Summary threeDrains = new BatchRecorder.Summary(1_500, 1_500_000, direct.busy().pollToCommit(),
				direct.busy().write(), 7_000_000_000L, List.of(80_000.0, 60_000.0, 67_000.0));
		Row oneMs = new Row("sawmill", 1, 1_000, null, threeDrains, null, true, "OK", 0, 100 << 20, NEXT_TO_IT);

		assertThat(Report.targets(List.of(direct, oneMs), OPENING)).anySatisfy(line -> assertThat(line)
			.isEqualTo("MET     Sawmill at 1 ms keeps ≥ 0.95 × its direct throughput (batch 1,000): 67,000 / 70,000 = 0.96"));
		assertThat(Report.markdownTable(List.of(oneMs), OPENING, 500_000)).contains("| 67,000 (median of 3) | 100,000 | 0.67 |");
		assertThat(Report.csv(List.of(oneMs))).endsWith(",100000,80000 60000 67000\n");
	}
}
