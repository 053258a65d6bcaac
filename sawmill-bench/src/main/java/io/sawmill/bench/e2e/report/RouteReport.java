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

import io.sawmill.bench.e2e.workload.Route;

/**
 * The route comparison's tables and its ratios to the built-in mapping path, the hash
 * route's judged against the target (throughput unchanged, ± 5 %): measured,
 * never asserted.
 */
public final class RouteReport {

	/** The hash route's records/s ÷ the mapping path's must lie in [LOW, HIGH]. */
	static final double LOW = 0.95;

	static final double HIGH = 1.05;

	private RouteReport() {
	}

	/**
	 * A variant against the mapping path in the same cell.
	 *
	 * @param variant the route's row
	 * @param mapping the mapping row of the same endpoint and batch size, if there is one
	 */
	record Ratio(RouteRow variant, Optional<RouteRow> mapping) {

		/**
		 * The variant's median records/s ÷ the mapping path's, NaN when either was not
		 * measured.
		 */
		double recordsPerSecond() {
			return both() ? variant.recordsPerSecond() / mapping.get().recordsPerSecond() : Double.NaN;
		}

		/**
		 * Drain k of the variant ÷ drain k of the mapping path, for each k both made:
		 * drains of one round ran one right after the other, so each ratio compares the
		 * same moment of the machine.
		 */
		List<Double> drainRatios() {
			if (!both()) {
				return List.of();
			}
			List<Double> at = variant.drainRates();
			List<Double> base = mapping.get().drainRates();
			List<Double> ratios = new ArrayList<>();
			for (int k = 0; k < Math.min(at.size(), base.size()); k++) {
				ratios.add(at.get(k) / base.get(k));
			}
			return ratios;
		}

		/** The target: for the hash route only. */
		String target() {
			return variant.route() == Route.HASH
					? String.format(Locale.ROOT, "%.2f–%.2f × mapping (unchanged ± 5 %%)", LOW, HIGH)
					: "none (reported)";
		}

		/** MET, NOT MET, or why it was not judged. */
		String verdict() {
			String notJudged = ComparedRow.whyNotJudged(variant, mapping, "mapping");
			if (notJudged != null) {
				return notJudged;
			}
			if (variant.route() != Route.HASH) {
				return "no target";
			}
			double ratio = recordsPerSecond();
			return ratio >= LOW && ratio <= HIGH ? "MET" : "NOT MET";
		}

		private boolean both() {
			return variant.measured() && mapping.filter(RouteRow::measured).isPresent();
		}
	}

	/** Every route row but the mapping path's, each with the mapping row of its cell. */
	static List<Ratio> ratios(List<RouteRow> rows) {
		return rows.stream()
			.filter(row -> row.route() != Route.MAPPING)
			.map(row -> new Ratio(row,
					rows.stream().filter(m -> m.route() == Route.MAPPING && m.sameCellAs(row)).findFirst()))
			.toList();
	}

	/**
	 * One row per variant: records/s with the drains' spread, × mapping, commands per
	 * record, write P50 and P99, and the consumer's CPU per record (the benchmark JVM's,
	 * median of the drains; less moved than records/s by other processes on the machine).
	 */
	public static String markdownTable(List<RouteRow> rows) {
		StringBuilder md = new StringBuilder(
				"| route | endpoint | batch | records/s (busy, median) | drains, records/s "
						+ "| × mapping | Redis commands per record | by command, per record | write P50 | write P99 "
						+ "| consumer CPU per record | verified |\n|---|---|--:|--:|--:|--:|--:|---|--:|--:|--:|---|\n");
		List<Ratio> ratios = ratios(rows);
		for (RouteRow row : rows) {
			if (!row.measured()) {
				md.append(String.format(Locale.ROOT, "| %s | %s | %,d | %s | | | | | | | | |%n", row.route().label(),
						row.endpointLabel(), row.batchSize(), row.notRun()));
				continue;
			}
			double ratio = row.route() == Route.MAPPING ? 1
					: ratios.stream().filter(r -> r.variant() == row).findFirst().orElseThrow().recordsPerSecond();
			md.append(String.format(Locale.ROOT,
					"| %s | %s | %,d | %,.0f | %s | %s | %.2f | %s | %s | %s | %s | %s |%n", row.route().label(),
					row.endpointLabel(), row.batchSize(), row.recordsPerSecond(), spread(row.drainRates()),
					Double.isNaN(ratio) ? "n/a" : String.format(Locale.ROOT, "%.2f", ratio),
					row.medianCommandsPerRecord(), row.commands().perRecordByCommand(row.records()),
					Durations.ms(row.busy().write().p50()), Durations.ms(row.busy().write().p99()),
					Durations.micros(row.busy().cpuNanosPerRecord()), row.verified() ? "yes" : "**NO**"));
		}
		return md.toString();
	}

	/**
	 * The lines for the console and results.md: the hash route judged, the others
	 * reported.
	 */
	public static List<String> targets(List<RouteRow> rows) {
		List<String> lines = new ArrayList<>();
		for (Ratio ratio : ratios(rows)) {
			RouteRow variant = ratio.variant();
			String verdict = ratio.verdict();
			String prefix = ComparedRow.linePrefix(verdict);
			String where = String.format(Locale.ROOT, "batch %,d at %s", variant.batchSize(), variant.endpointLabel());
			String numbers = Double.isNaN(ratio.recordsPerSecond()) ? ": " + verdict
					: String.format(Locale.ROOT,
							": %,.0f / %,.0f = %.2f (drain by drain: %s), %.2f vs %.2f Redis commands "
									+ "per record, consumer CPU per record %s vs %s",
							variant.recordsPerSecond(), ratio.mapping().orElseThrow().recordsPerSecond(),
							ratio.recordsPerSecond(),
							ratio.drainRatios()
								.stream()
								.map(r -> String.format(Locale.ROOT, "%.2f", r))
								.collect(Collectors.joining(" ")),
							variant.medianCommandsPerRecord(), ratio.mapping().orElseThrow().medianCommandsPerRecord(),
							Durations.micros(variant.busy().cpuNanosPerRecord()),
							Durations.micros(ratio.mapping().orElseThrow().busy().cpuNanosPerRecord()));
			lines.add(prefix
					+ (variant.route() == Route.HASH ? "hash route " + ratio.target() + " (" + where + ")" + numbers
							: variant.route().label() + " route vs mapping, not judged (" + where + ")" + numbers));
		}
		return lines;
	}

	/**
	 * The comparison's section of results.md: the table, the ratio lines and every
	 * verification.
	 */
	public static String markdownSection(List<RouteRow> rows) {
		return "## Declarative routes (Sawmill, busy drains of versioned records)\n\n" + markdownTable(rows)
				+ "\nrecords/s: the median drain's; drains: each drain's, in the order they ran (min–max). Redis commands "
				+ "per record: `INFO commandstats` over a drain ÷ the backlog, the median of the drains; by command: the "
				+ "median drain's. Write: Sawmill's `sawmill.redis.pipeline.duration`, over every drain's batches. Consumer "
				+ "CPU per record: as in the main table, the median of the drains.\n\n"
				+ "### Ratios to the mapping path (measured, not asserted)\n\n"
				+ targets(rows).stream().map(line -> "- " + line).collect(Collectors.joining("\n"))
				+ "\n\n### Verification\n\n"
				+ rows.stream()
					.map(row -> String.format(Locale.ROOT, "- %s, %s, batch %d: %s", row.route().label(),
							row.endpointLabel(), row.batchSize(), row.verification()))
					.collect(Collectors.joining("\n"))
				+ "\n";
	}

	/** "91,000–97,000 (3)", or the one rate. */
	static String spread(List<Double> rates) {
		if (rates.size() == 1) {
			return String.format(Locale.ROOT, "%,.0f (1)", rates.get(0));
		}
		return String.format(Locale.ROOT, "%,.0f–%,.0f (%d)",
				rates.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
				rates.stream().mapToDouble(Double::doubleValue).max().orElseThrow(), rates.size());
	}

}
