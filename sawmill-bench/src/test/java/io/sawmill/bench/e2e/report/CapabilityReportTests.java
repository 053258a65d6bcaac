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
import io.sawmill.bench.e2e.workload.Capability;

/**
 * The capability comparison's tables and its ratios to plain, judged against the issue's
 * targets.
 */
class CapabilityReportTests {

	private static final long BACKLOG = 60_000;

	private static final BatchRecorder.Percentiles WRITE = new BatchRecorder.Percentiles(180, 3_000_000, 9_000_000,
			12_000_000);

	/**
	 * A measured row of three drains at these records/s, whose drains each sent
	 * {@code hset} and {@code expire} per record.
	 */
	private static CapabilityRow row(String workload, Capability capability, List<Double> rates, double hset,
			double expire) {
		BatchRecorder.Summary busy = new BatchRecorder.Summary(60 * rates.size(), BACKLOG * rates.size(), WRITE, WRITE,
				1_000_000_000L, rates, rates.stream().map(rate -> 2_000.0).toList());
		CommandStats.Counts counts = new CommandStats.Counts(
				Map.of("hset", (long) (hset * BACKLOG), "expire", (long) (expire * BACKLOG), "hello", 1L));
		return new CapabilityRow(workload, capability, 0, false, 1_000, BACKLOG, busy,
				rates.stream().map(rate -> counts.perRecord(BACKLOG)).toList(), counts, true, "OK", 0, 200L << 20,
				null);
	}

	private static List<CapabilityRow> rows(CapabilityRow zipfCoalesce, CapabilityRow uniformCoalesce) {
		return List.of(row("uniform", Capability.PLAIN, List.of(100_000.0, 90_000.0, 110_000.0), 1, 1), uniformCoalesce,
				row("uniform", Capability.VERSION, List.of(70_000.0, 60_000.0, 65_000.0), 1, 1),
				row("zipf", Capability.PLAIN, List.of(80_000.0, 80_000.0, 80_000.0), 1, 1), zipfCoalesce,
				CapabilityRow.notRun("zipf", Capability.VERSION, 0, false, 1_000,
						"not available in this build (unknown property sawmill.mapping.version)", false));
	}

	@Test
	void shouldJudgeEachCapabilityAgainstPlainInTheSameCellWithTheIssuesTargets() {
		List<CapabilityRow> rows = rows(
				row("zipf", Capability.COALESCE, List.of(200_000.0, 170_000.0, 180_000.0), 0.2, 0.2),
				row("uniform", Capability.COALESCE, List.of(96_000.0, 97_000.0, 94_000.0), 1, 1));

		assertThat(CapabilityReport.ratioTable(rows).lines().skip(2).toList()).containsExactly(
				"| coalesce vs plain | uniform | direct | 1,000 | 96,000 / 100,000 | 0.96 | 2.00 vs 2.00 | ≥ 0.95 × plain (costs ≤ 5 %) | MET |",
				"| version vs plain | uniform | direct | 1,000 | 65,000 / 100,000 | 0.65 | 2.00 vs 2.00 | ≥ 0.6 × plain | MET |",
				"| coalesce vs plain | zipf | direct | 1,000 | 180,000 / 80,000 | 2.25 | 0.40 vs 2.00 | ≥ 2 × plain and < 1.0 Redis commands per record | MET |",
				"| version vs plain | zipf | direct | 1,000 | n/a | n/a | n/a | ≥ 0.6 × plain | not available in this build (unknown property sawmill.mapping.version) |");
		assertThat(CapabilityReport.targets(rows)).contains(
				"MET     coalesce ≥ 2 × plain and < 1.0 Redis commands per record (zipf, batch 1,000 at direct): "
						+ "180,000 / 80,000 = 2.25, 0.40 vs 2.00 Redis commands per record",
				"INFO    version ≥ 0.6 × plain (zipf, batch 1,000 at direct): not available in this build "
						+ "(unknown property sawmill.mapping.version)");
	}

	@Test
	void shouldMissTheHotKeyTargetOnCommandsPerRecordEvenWhenFastEnough() {
		List<CapabilityRow> rows = rows(row("zipf", Capability.COALESCE, List.of(200_000.0), 0.6, 0.6),
				row("uniform", Capability.COALESCE, List.of(90_000.0), 1, 1));

		assertThat(CapabilityReport.ratios(rows)).extracting(CapabilityReport.Ratio::verdict)
			.containsExactly("NOT MET", "MET", "NOT MET",
					"not available in this build (unknown property sawmill.mapping.version)");
	}

	@Test
	void shouldJudgeExactlyOnceAgainstSixTenthsOfPlain() {
		CapabilityRow plain = row("uniform", Capability.PLAIN, List.of(100_000.0), 1, 1);

		assertThat(
				CapabilityReport.ratios(List.of(plain, row("uniform", Capability.EXACTLY_ONCE, List.of(61_000.0), 1, 1),
						row("zipf", Capability.EXACTLY_ONCE, List.of(40_000.0), 1, 1))))
			.extracting(ratio -> ratio.target() + ": " + ratio.verdict())
			.containsExactly("≥ 0.6 × plain: MET", "≥ 0.6 × plain: not judged: plain not run");
		assertThat(Capability.parse("exactly-once").label()).isEqualTo("exactly-once");
	}

	@Test
	void shouldReportExactlyOnceOnAClusterAgainstPlainOnTheClusterWithoutATarget() {
		CapabilityRow plain = row("uniform", Capability.PLAIN, List.of(100_000.0), 1, 1);
		CapabilityRow clusterPlain = onCluster(row("uniform", Capability.PLAIN, List.of(80_000.0), 1, 1));
		CapabilityRow clusterExactlyOnce = onCluster(row("uniform", Capability.EXACTLY_ONCE, List.of(20_000.0), 1, 1));

		List<CapabilityReport.Ratio> ratios = CapabilityReport.ratios(List.of(plain, clusterPlain, clusterExactlyOnce));

		assertThat(ratios).singleElement().satisfies(ratio -> {
			assertThat(ratio.plain()).contains(clusterPlain);
			assertThat(ratio.recordsPerSecond()).isEqualTo(0.25);
			assertThat(ratio.target() + ": " + ratio.verdict()).isEqualTo("none on a Cluster (reported): reported");
		});
		assertThat(clusterExactlyOnce.endpointLabel()).isEqualTo("cluster");
	}

	private static CapabilityRow onCluster(CapabilityRow row) {
		return new CapabilityRow(row.workload(), row.capability(), 0, true, row.batchSize(), row.records(), row.busy(),
				row.commandsPerRecord(), row.commands(), row.verified(), row.verification(), row.fullGcs(),
				row.peakHeapBytes(), row.notRun());
	}

	@Test
	void shouldNotJudgeARatioWhosePlainRowDidNotRun() {
		CapabilityRow coalesce = row("zipf", Capability.COALESCE, List.of(200_000.0), 0.2, 0.2);

		CapabilityReport.Ratio ratio = CapabilityReport.ratios(List.of(coalesce)).get(0);

		assertThat(ratio.recordsPerSecond()).isNaN();
		assertThat(ratio.verdict()).isEqualTo("not judged: plain not run");
	}

	@Test
	void shouldShowRecordsPerSecondCommandsPerRecordAndTheWriteP99PerWorkloadAndCapability() {
		List<CapabilityRow> rows = rows(
				row("zipf", Capability.COALESCE, List.of(200_000.0, 170_000.0, 180_000.0), 0.2, 0.2),
				row("uniform", Capability.COALESCE, List.of(96_000.0, 97_000.0, 94_000.0), 1, 1));

		String table = CapabilityReport.markdownTable(rows);

		assertThat(table)
			.contains("| zipf | coalesce | direct | 1,000 | 180,000 (median of 3) | 0.40 | expire 0.20, hset 0.20, "
					+ "1 other call | 3.0 ms | 9.0 ms | 2.00 µs | yes |")
			.contains("| zipf | version | direct | 1,000 | not available in this build (unknown property "
					+ "sawmill.mapping.version) | | | | | | |");
		assertThat(CapabilityReport.markdownSection(rows)).contains("### Ratios to plain", "### Verification",
				"- zipf, version, direct, batch 1000: not available in this build");
	}

	@Test
	void shouldAddTheComparisonsRowsAndColumnsToResultsCsv() {
		List<CapabilityRow> rows = rows(
				row("zipf", Capability.COALESCE, List.of(200_000.0, 170_000.0, 180_000.0), 0.2, 0.2),
				row("uniform", Capability.COALESCE, List.of(96_000.0, 97_000.0, 94_000.0), 1, 1));

		List<String> csv = Report.csv(List.of(), "uniform", rows).lines().toList();

		int columns = csv.get(0).split(",", -1).length;
		assertThat(csv.get(0)).endsWith(",workload,capability,capability_status,redis_commands_per_record,"
				+ "redis_commands_per_record_drains,redis_commands,records_per_s_vs_plain");
		assertThat(csv).hasSize(7);
		assertThat(csv.get(5)).startsWith("sawmill,0.0,1000,false,,")
			.contains(",180000,")
			.endsWith(",zipf,coalesce,measured,0.4000,0.4000 0.4000 0.4000,expire=12000 hset=12000 hello=1,2.250");
		assertThat(csv.get(6)).startsWith("sawmill,0.0,1000,false,,,")
			.endsWith(",zipf,version,\"not available in this build (unknown property sawmill.mapping.version)\",,,,");
		assertThat(csv).allSatisfy(line -> assertThat(line.split(",", -1)).hasSize(columns));
	}

}
