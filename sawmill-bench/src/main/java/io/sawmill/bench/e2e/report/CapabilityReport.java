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

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import io.sawmill.bench.e2e.workload.Capability;

/**
 * The capability comparison's tables (Markdown, and the columns it adds to results.csv)
 * and its ratios to the plain variant, judged against the targets: measured,
 * never asserted.
 */
public final class CapabilityReport {

	/** The columns the comparison adds to every line of results.csv. */
	static final String CSV_COLUMNS = "workload,capability,capability_status,redis_commands_per_record,"
			+ "redis_commands_per_record_drains,redis_commands,records_per_s_vs_plain";

	private CapabilityReport() {
	}

	/**
	 * A capability against plain in the same cell.
	 *
	 * @param variant the capability's row
	 * @param plain the plain row of the same workload, endpoint and batch size, if there
	 * is one
	 */
	record Ratio(CapabilityRow variant, Optional<CapabilityRow> plain) {

		/** The variant's records/s ÷ plain's, NaN when either was not measured. */
		double recordsPerSecond() {
			return plain.filter(CapabilityRow::measured).isPresent() && variant.measured()
					? variant.recordsPerSecond() / plain.get().recordsPerSecond() : Double.NaN;
		}

		/**
		 * The target for this comparison, e.g. "≥ 2 × and < 1.0 commands per
		 * record".
		 */
		String target() {
			if (variant.capability() == Capability.COALESCE) {
				return variant.workload().equals("zipf") ? "≥ 2 × plain and < 1.0 Redis commands per record"
						: "≥ 0.95 × plain (costs ≤ 5 %)";
			}
			return variant.cluster() ? "none on a Cluster (reported)" : "≥ 0.6 × plain";
		}

		/** MET, NOT MET, or why it was not judged. */
		String verdict() {
			String notJudged = ComparedRow.whyNotJudged(variant, plain, "plain");
			if (notJudged != null) {
				return notJudged;
			}
			if (variant.cluster() && variant.capability() != Capability.COALESCE) {
				return "reported";
			}
			double ratio = recordsPerSecond();
			boolean met = switch (variant.capability()) {
				case COALESCE -> variant.workload().equals("zipf")
						? ratio >= 2 && variant.medianCommandsPerRecord() < 1.0 : ratio >= 0.95;
				case VERSION, EXACTLY_ONCE -> ratio >= 0.6;
				case PLAIN -> throw new IllegalStateException("plain is the baseline");
			};
			return met ? "MET" : "NOT MET";
		}
	}

	/** Every capability row but plain, each with the plain row of its cell. */
	static List<Ratio> ratios(List<CapabilityRow> rows) {
		return rows.stream()
			.filter(row -> row.capability() != Capability.PLAIN)
			.map(row -> new Ratio(row,
					rows.stream().filter(p -> p.capability() == Capability.PLAIN && p.sameCellAs(row)).findFirst()))
			.toList();
	}

	public static String markdownTable(List<CapabilityRow> rows) {
		StringBuilder md = new StringBuilder("| workload | capability | endpoint | batch | records/s (busy) "
				+ "| Redis commands per record | by command, per record | write P50 | write P99 | consumer CPU per record "
				+ "| verified |\n|---|---|---|--:|--:|--:|---|--:|--:|--:|---|\n");
		for (CapabilityRow row : rows) {
			if (!row.measured()) {
				md.append(String.format(Locale.ROOT, "| %s | %s | %s | %,d | %s | | | | | | |%n", row.workload(),
						row.capability().label(), row.endpointLabel(), row.batchSize(), row.notRun()));
				continue;
			}
			int drains = row.busy().drainRates().size();
			md.append(String.format(Locale.ROOT, "| %s | %s | %s | %,d | %,.0f%s | %.2f | %s | %s | %s | %s | %s |%n",
					row.workload(), row.capability().label(), row.endpointLabel(), row.batchSize(),
					row.recordsPerSecond(), drains > 1 ? " (median of " + drains + ")" : "",
					row.medianCommandsPerRecord(), row.commands().perRecordByCommand(row.records()),
					Durations.ms(row.busy().write().p50()), Durations.ms(row.busy().write().p99()),
					Durations.micros(row.busy().cpuNanosPerRecord()), row.verified() ? "yes" : "**NO**"));
		}
		return md.toString();
	}

	static String ratioTable(List<CapabilityRow> rows) {
		StringBuilder md = new StringBuilder("| comparison | workload | endpoint | batch | records/s | ratio "
				+ "| Redis commands per record | target | verdict |\n|---|---|---|--:|--:|--:|--:|---|---|\n");
		for (Ratio ratio : ratios(rows)) {
			CapabilityRow variant = ratio.variant();
			boolean both = !Double.isNaN(ratio.recordsPerSecond());
			md.append(String.format(Locale.ROOT, "| %s vs plain | %s | %s | %,d | %s | %s | %s | %s | %s |%n",
					variant.capability().label(), variant.workload(), variant.endpointLabel(), variant.batchSize(),
					both ? String.format(Locale.ROOT, "%,.0f / %,.0f", variant.recordsPerSecond(),
							ratio.plain().orElseThrow().recordsPerSecond()) : "n/a",
					both ? String.format(Locale.ROOT, "%.2f", ratio.recordsPerSecond()) : "n/a",
					both ? String.format(Locale.ROOT, "%.2f vs %.2f", variant.medianCommandsPerRecord(),
							ratio.plain().orElseThrow().medianCommandsPerRecord()) : "n/a",
					ratio.target(), ratio.verdict()));
		}
		return md.toString();
	}

	/**
	 * The comparison's section of results.md: both tables and what their columns mean.
	 */
	public static String markdownSection(List<CapabilityRow> rows) {
		return "## Capabilities (Sawmill, busy drains of versioned records)\n\n" + markdownTable(rows)
				+ "\nRedis commands per record: the `calls` of `INFO commandstats` over a drain (reset before it; the "
				+ "benchmark's own reset subtracted) ÷ the backlog, the median of the drains; commands a Redis Function "
				+ "runs count too. By command: the median drain's. Write: Sawmill's `sawmill.redis.pipeline.duration`, "
				+ "over every drain's batches.\n\n### Ratios to plain (measured, not asserted)\n\n" + ratioTable(rows)
				+ "\n### Verification\n\n"
				+ rows.stream()
					.map(row -> String.format(Locale.ROOT, "- %s, %s, %s, batch %d: %s", row.workload(),
							row.capability().label(), row.endpointLabel(), row.batchSize(), row.verification()))
					.collect(Collectors.joining("\n"))
				+ "\n";
	}

	/** The comparison's columns for a line of the main table: only its workload. */
	static String csvColumns(String workload) {
		return workload + ",,,,,,";
	}

	/** The comparison's columns for one of its rows. */
	static String csvColumns(CapabilityRow row, List<CapabilityRow> rows) {
		double ratio = ratios(rows).stream()
			.filter(r -> r.variant() == row)
			.mapToDouble(Ratio::recordsPerSecond)
			.findFirst()
			.orElse(Double.NaN);
		return String.join(",", row.workload(), row.capability().label(),
				row.measured() ? "measured" : '"' + row.notRun().replace("\"", "'") + '"',
				row.measured() ? String.format(Locale.ROOT, "%.4f", row.medianCommandsPerRecord()) : "",
				row.commandsPerRecord()
					.stream()
					.map(c -> String.format(Locale.ROOT, "%.4f", c))
					.collect(Collectors.joining(" ")),
				row.commands() == null ? "" : row.commands().all(),
				Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, "%.3f", ratio));
	}

	/** The ratio lines for the console: the verdict first, as the main targets print. */
	public static List<String> targets(List<CapabilityRow> rows) {
		List<String> lines = new ArrayList<>();
		for (Ratio ratio : ratios(rows)) {
			CapabilityRow variant = ratio.variant();
			String verdict = ratio.verdict();
			String prefix = ComparedRow.linePrefix(verdict);
			lines.add(prefix + String.format(Locale.ROOT, "%s %s (%s, batch %,d at %s)%s", variant.capability().label(),
					ratio.target(), variant.workload(), variant.batchSize(), variant.endpointLabel(),
					Double.isNaN(ratio.recordsPerSecond()) ? ": " + verdict
							: String.format(Locale.ROOT,
									": %,.0f / %,.0f = %.2f, %.2f vs %.2f Redis commands per record",
									variant.recordsPerSecond(), ratio.plain().orElseThrow().recordsPerSecond(),
									ratio.recordsPerSecond(), variant.medianCommandsPerRecord(),
									ratio.plain().orElseThrow().medianCommandsPerRecord())));
		}
		return lines;
	}

}
