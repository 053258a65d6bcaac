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
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sawmill.bench.e2e.measure.BatchRecorder;
import io.sawmill.bench.e2e.measure.CommandStats;
import io.sawmill.bench.e2e.workload.Route;

/**
 * The route comparison's table and its ratios to the mapping path, the hash route's
 * judged against ± 5 %.
 */
class RouteReportTests {

	private static final long BACKLOG = 60_000;

	private static final BatchRecorder.Percentiles WRITE = new BatchRecorder.Percentiles(180, 3_000_000, 9_000_000,
			12_000_000);

	/**
	 * A measured row of drains at these records/s, each of which sent these calls per
	 * record.
	 */
	private static RouteRow row(Route route, List<Double> rates, Map<String, Double> perRecord) {
		BatchRecorder.Summary busy = new BatchRecorder.Summary(60 * rates.size(), BACKLOG * rates.size(), WRITE, WRITE,
				1_000_000_000L, rates, rates.stream().map(rate -> 2_000.0).toList());
		Map<String, Long> calls = new java.util.TreeMap<>();
		perRecord.forEach((command, n) -> calls.put(command, (long) (n * BACKLOG)));
		CommandStats.Counts counts = new CommandStats.Counts(calls);
		return new RouteRow(route, 0, 1_000, BACKLOG, busy,
				rates.stream().map(rate -> counts.perRecord(BACKLOG)).toList(), counts, true, "OK", null);
	}

	private static RouteRow mapping() {
		return row(Route.MAPPING, List.of(100_000.0, 90_000.0, 110_000.0), Map.of("hset", 1.0, "expire", 1.0));
	}

	private static RouteRow hash(double... rates) {
		return row(Route.HASH, java.util.Arrays.stream(rates).boxed().toList(), Map.of("hset", 1.0, "expire", 1.0));
	}

	@Test
	void shouldJudgeTheHashRouteAgainstTheMappingPathWithinFivePercentEitherWay() {
		assertThat(RouteReport.ratios(List.of(mapping(), hash(96_000, 95_000, 101_000))).get(0).verdict())
			.isEqualTo("MET");
		assertThat(RouteReport.ratios(List.of(mapping(), hash(104_000, 105_000, 107_000))).get(0).verdict())
			.isEqualTo("MET");
		assertThat(RouteReport.ratios(List.of(mapping(), hash(94_000, 93_000, 90_000))).get(0).verdict())
			.isEqualTo("NOT MET");
		assertThat(RouteReport.ratios(List.of(mapping(), hash(106_000, 120_000, 100_000))).get(0).verdict())
			.isEqualTo("NOT MET");
	}

	@Test
	void shouldCompareDrainsOfTheSameRoundForTheSpread() {
		RouteReport.Ratio ratio = RouteReport.ratios(List.of(mapping(), hash(95_000, 99_000, 121_000))).get(0);

		assertThat(ratio.recordsPerSecond()).isEqualTo(0.99);
		assertThat(ratio.drainRatios()).containsExactly(0.95, 1.1, 1.1);
	}

	@Test
	void shouldReportTheOtherTypesWithoutATarget() {
		RouteRow string = row(Route.STRING, List.of(150_000.0), Map.of("set", 1.0));

		List<String> targets = RouteReport.targets(List.of(mapping(), hash(100_000), string));

		assertThat(targets).containsExactly(
				"MET     hash route 0.95–1.05 × mapping (unchanged ± 5 %) (batch 1,000 at direct): "
						+ "100,000 / 100,000 = 1.00 (drain by drain: 1.00), 2.00 vs 2.00 Redis commands per record, consumer CPU per record 2.00 µs vs 2.00 µs",
				"INFO    string route vs mapping, not judged (batch 1,000 at direct): "
						+ "150,000 / 100,000 = 1.50 (drain by drain: 1.50), 1.00 vs 2.00 Redis commands per record, consumer CPU per record 2.00 µs vs 2.00 µs");
	}

	@Test
	void shouldNotJudgeWithoutTheMappingPathOrWhenARunDidNotVerify() {
		RouteRow unverified = new RouteRow(Route.MAPPING, 0, 1_000, BACKLOG, mapping().busy(), List.of(2.0),
				mapping().commands(), false, "FAILED", null);

		assertThat(RouteReport.ratios(List.of(hash(100_000))).get(0).verdict())
			.isEqualTo("not judged: mapping not run");
		assertThat(RouteReport.ratios(List.of(hash(100_000))).get(0).recordsPerSecond()).isNaN();
		assertThat(RouteReport.ratios(List.of(unverified, hash(100_000))).get(0).verdict())
			.isEqualTo("not judged: a run did not verify");
		assertThat(RouteReport
			.ratios(List.of(mapping(),
					RouteRow.notRun(Route.HASH, 0, 1_000,
							"not available in this build (unknown property sawmill.routes[0].type)", false)))
			.get(0)
			.verdict()).isEqualTo("not available in this build (unknown property sawmill.routes[0].type)");
	}

	@Test
	void shouldShowOneRowPerTypeWithTheDrainsSpreadAndTheRatioToMapping() {
		RouteRow list = row(Route.LIST, List.of(70_000.0, 60_000.0, 65_000.0),
				Map.of("lpush", 1.0, "ltrim", 1.0, "expire", 1.0));
		List<RouteRow> rows = List.of(mapping(), hash(96_000, 95_000, 101_000), list,
				RouteRow.notRun(Route.STREAM, 0, 1_000, "FAILED: Sawmill did not start", true));

		String table = RouteReport.markdownTable(rows);

		assertThat(table.lines().skip(2).toList()).containsExactly(
				"| mapping | direct | 1,000 | 100,000 | 90,000–110,000 (3) | 1.00 | 2.00 | expire 1.00, hset 1.00 | 3.0 ms | 9.0 ms | 2.00 µs | yes |",
				"| hash | direct | 1,000 | 96,000 | 95,000–101,000 (3) | 0.96 | 2.00 | expire 1.00, hset 1.00 | 3.0 ms | 9.0 ms | 2.00 µs | yes |",
				"| list | direct | 1,000 | 65,000 | 60,000–70,000 (3) | 0.65 | 3.00 | expire 1.00, lpush 1.00, ltrim 1.00 | 3.0 ms | 9.0 ms | 2.00 µs | yes |",
				"| stream | direct | 1,000 | FAILED: Sawmill did not start | | | | | | | | |");
		assertThat(RouteReport.markdownSection(rows)).contains("## Declarative routes", "### Verification",
				"- stream, direct, batch 1000: FAILED: Sawmill did not start");
		assertThat(rows.get(3).verified()).isFalse();
	}

}
