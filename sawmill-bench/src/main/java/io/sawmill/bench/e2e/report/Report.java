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

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import com.sun.management.HotSpotDiagnosticMXBean;

import io.sawmill.bench.e2e.measure.BatchRecorder;
import io.sawmill.bench.e2e.measure.RedisCeiling;
import io.sawmill.bench.e2e.workload.KeyDistribution;

/**
 * The result table (Markdown and CSV) and the check of the benchmark's targets, from the
 * rows of one run.
 */
public final class Report {

	/**
	 * Whether this JVM clears softly reachable objects at every collection
	 * ({@code -XX:SoftRefLRUPolicyMSPerMB=0}): each drain starts and closes a Sawmill
	 * context, and closed contexts stay softly reachable through library caches until the
	 * heap runs short.
	 */
	private static final boolean SOFT_REFERENCES_CLEARED = "0"
		.equals(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
			.getVMOption("SoftRefLRUPolicyMSPerMB")
			.getValue());

	private Report() {
	}

	/**
	 * The whole results.md: the run, its notes, the table, the targets, the capability
	 * comparison's section (empty when not run), the plots and every verification.
	 */
	public static String resultsMarkdown(String run, List<String> notes, String table, List<String> targets,
			String capabilities, List<String> plots, List<Row> rows) {
		StringBuilder md = new StringBuilder("# Sawmill end-to-end benchmark\n\n");
		md.append("Run: ").append(run).append(".\n\n");
		notes.forEach(note -> md.append("- ").append(note).append('\n'));
		md.append('\n').append(table).append('\n');
		md.append(
				"`*` sequential: measured on the sample above and extrapolated (batch time = time per record × batch size; "
						+ "drain time = backlog ÷ measured rate).\n"
						+ "Per batch, the write runs from the send of its first command to the arrival of its last reply, and "
						+ "poll→commit from the return of the poll to the end of the offset commit. Idle and steady batches are as "
						+ "large as the producer's rate fills them; busy batches are full. Consumer CPU per record: the benchmark "
						+ "JVM's CPU time (without the latency proxy's and the JIT compiler's threads) from the first batch's commit to the last one's, "
						+ "over the records in between, the median of the drains.\n\n");
		md.append("## Targets (measured, not asserted)\n\n");
		targets.forEach(t -> md.append("- ").append(t).append('\n'));
		md.append(capabilities.isEmpty() ? "" : "\n" + capabilities);
		md.append("\n## Plots\n\n");
		plots.forEach(p -> md.append("![").append(p).append("](").append(p).append(")\n"));
		md.append("\n## Verification\n\n");
		rows.forEach(r -> md.append("- ")
			.append(r.strategy())
			.append(", ")
			.append(r.endpointLabel())
			.append(", batch ")
			.append(r.batchSize())
			.append(": ")
			.append(r.verification())
			.append('\n'));
		return md.toString();
	}

	public static String markdownTable(List<Row> rows, RedisCeiling.Result ceiling, long backlog) {
		StringBuilder md = new StringBuilder();
		md.append(
				"| strategy | endpoint | batch | idle write P50 | idle write P99 | idle write max | busy write P50 | busy write P99 "
						+ "| busy write max | busy poll→commit P50 | busy poll→commit P99 | steady write P50 | steady write P99 "
						+ "| records/s (busy) | consumer CPU per record (busy) | Redis ceiling next to it | × that ceiling | drain ")
			.append(String.format(Locale.ROOT, "%,d", backlog))
			.append(" | verified |\n");
		md.append("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
		for (Row row : rows) {
			// a cluster has no ceiling of its own measured: redis-benchmark measures the
			// single server
			RedisCeiling.Result own = row.cluster() ? null : row.ceilingOr(ceiling);
			String ratio = own == null ? "n/a"
					: String.format(Locale.ROOT, "%.2f", row.recordsPerSecond() / own.recordsPerSecond());
			String next = row.ceiling() != null ? String.format(Locale.ROOT, "%,.0f", row.ceiling().recordsPerSecond())
					: own == null ? "n/a" : String.format(Locale.ROOT, "%,.0f (opening)", own.recordsPerSecond());
			if (row.extrapolated()) {
				String batch = "≈ " + Durations.ms(row.sequential().batchNanos(row.batchSize())) + " *";
				md.append(String.format(Locale.ROOT,
						"| %s * | %s | %,d | %s | %s | n/a | %s | %s | n/a | %s | %s | n/a | n/a | %,.0f * | %s (sample) | %s | %s | ≈ %s * | %s |%n",
						row.strategy(), row.endpointLabel(), row.batchSize(), batch, batch, batch, batch, batch, batch,
						row.recordsPerSecond(), Durations.micros(row.cpuNanosPerRecord()), next, ratio,
						Durations.duration(backlog / row.recordsPerSecond()),
						row.verified() ? "yes (sample)" : "**NO**"));
				continue;
			}
			BatchRecorder.Percentiles idle = row.idle() == null ? null : row.idle().write();
			BatchRecorder.Percentiles busy = row.busyWrite();
			BatchRecorder.Percentiles busyCommit = row.busyPollToCommit();
			BatchRecorder.Percentiles steady = row.steady() == null ? null : row.steady().write();
			int drains = row.busy() == null ? 1 : row.busy().drainRates().size();
			String rate = String.format(Locale.ROOT, "%,.0f", row.recordsPerSecond())
					+ (drains > 1 ? " (median of " + drains + ")" : "");
			md.append(String.format(Locale.ROOT,
					"| %s | %s | %,d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
					row.strategy(), row.endpointLabel(), row.batchSize(), ms(idle, Percentile.P50),
					ms(idle, Percentile.P99), ms(idle, Percentile.MAX), ms(busy, Percentile.P50),
					ms(busy, Percentile.P99), ms(busy, Percentile.MAX), ms(busyCommit, Percentile.P50),
					ms(busyCommit, Percentile.P99), ms(steady, Percentile.P50), ms(steady, Percentile.P99), rate,
					Durations.micros(row.cpuNanosPerRecord()), next, ratio,
					row.busy() == null ? "n/a" : Durations.duration(row.busy().spanNanos() / 1e9),
					row.verified() ? "yes" : "**NO**"));
		}
		return md.toString();
	}

	private enum Percentile {

		P50, P99, MAX

	}

	/** One percentile in nanoseconds, or null when there was nothing to measure. */
	private static Long nanos(BatchRecorder.Percentiles percentiles, Percentile which) {
		if (percentiles == null || (percentiles.samples() == 0 && percentiles.max() == 0)) {
			return null;
		}
		return switch (which) {
			case P50 -> percentiles.p50();
			case P99 -> percentiles.p99();
			case MAX -> percentiles.max();
		};
	}

	private static String ms(BatchRecorder.Percentiles percentiles, Percentile which) {
		Long nanos = nanos(percentiles, which);
		return nanos == null ? "n/a" : Durations.ms(nanos);
	}

	static String csv(List<Row> rows) {
		return csv(rows, KeyDistribution.UNIFORM.label(), List.of());
	}

	/**
	 * results.csv: the main table's rows, then the capability comparison's, with the
	 * columns of both (a main row's comparison columns name only its workload; a
	 * comparison row leaves the idle and steady columns empty).
	 */
	public static String csv(List<Row> rows, String workload, List<CapabilityRow> capabilities) {
		StringBuilder csv = new StringBuilder(CSV_HEADER + "," + CapabilityReport.CSV_COLUMNS + "\n");
		for (Row row : rows) {
			csv.append(csvLine(row)).append(',').append(CapabilityReport.csvColumns(workload)).append('\n');
		}
		for (CapabilityRow row : capabilities) {
			String line = row.measured() ? csvLine(row.asRow())
					: String.join(",", "sawmill", Double.toString(row.rttMs()), Integer.toString(row.batchSize()),
							"false") + ",".repeat(CSV_HEADER.split(",").length - 4);
			csv.append(line).append(',').append(CapabilityReport.csvColumns(row, capabilities)).append('\n');
		}
		return csv.toString();
	}

	private static final String CSV_HEADER = "strategy,rtt_ms,batch,extrapolated,idle_batches,idle_write_p50_ms,idle_write_p99_ms,"
			+ "idle_write_max_ms,idle_poll_to_commit_p50_ms,idle_poll_to_commit_p99_ms,busy_batches,busy_write_p50_ms,"
			+ "busy_write_p99_ms,busy_write_max_ms,busy_poll_to_commit_p50_ms,busy_poll_to_commit_p99_ms,"
			+ "busy_poll_to_commit_max_ms,records_per_s,busy_drain_s,verified,full_gcs,peak_heap_mb,"
			+ "ceiling_next_to_it_records_per_s,busy_drains_records_per_s,cluster,cpu_us_per_record,"
			+ "busy_drains_cpu_us_per_record,steady_batches,steady_write_p50_ms,steady_write_p99_ms,steady_write_max_ms,"
			+ "steady_records_per_s";

	private static String csvLine(Row row) {
		BatchRecorder.Summary idle = row.idle();
		BatchRecorder.Summary busy = row.busy();
		BatchRecorder.Percentiles busyWrite = row.busyWrite();
		BatchRecorder.Percentiles busyCommit = row.busyPollToCommit();
		BatchRecorder.Summary steady = row.steady();
		BatchRecorder.Percentiles steadyWrite = steady == null ? null : steady.write();
		return String.join(",", row.strategy(), Double.toString(row.rttMs()), Integer.toString(row.batchSize()),
				Boolean.toString(row.extrapolated()), idle == null ? "" : Integer.toString(idle.batches()),
				msRaw(idle == null ? null : idle.write(), Percentile.P50),
				msRaw(idle == null ? null : idle.write(), Percentile.P99),
				msRaw(idle == null ? null : idle.write(), Percentile.MAX),
				msRaw(idle == null ? null : idle.pollToCommit(), Percentile.P50),
				msRaw(idle == null ? null : idle.pollToCommit(), Percentile.P99),
				busy == null ? "" : Integer.toString(busy.batches()), msRaw(busyWrite, Percentile.P50),
				msRaw(busyWrite, Percentile.P99), msRaw(busyWrite, Percentile.MAX), msRaw(busyCommit, Percentile.P50),
				msRaw(busyCommit, Percentile.P99), msRaw(busyCommit, Percentile.MAX),
				String.format(Locale.ROOT, "%.0f", row.recordsPerSecond()),
				busy == null ? "" : String.format(Locale.ROOT, "%.2f", busy.spanNanos() / 1e9),
				Boolean.toString(row.verified()), Long.toString(row.fullGcs()),
				Long.toString(row.peakHeapBytes() >> 20),
				row.ceiling() == null ? "" : String.format(Locale.ROOT, "%.0f", row.ceiling().recordsPerSecond()),
				busy == null ? ""
						: busy.drainRates()
							.stream()
							.map(r -> String.format(Locale.ROOT, "%.0f", r))
							.collect(Collectors.joining(" ")),
				Boolean.toString(row.cluster()),
				Double.isNaN(row.cpuNanosPerRecord()) ? ""
						: String.format(Locale.ROOT, "%.3f", row.cpuNanosPerRecord() / 1e3),
				busy == null ? ""
						: busy.cpuPerRecord()
							.stream()
							.map(c -> String.format(Locale.ROOT, "%.3f", c / 1e3))
							.collect(Collectors.joining(" ")),
				steady == null ? "" : Integer.toString(steady.batches()), msRaw(steadyWrite, Percentile.P50),
				msRaw(steadyWrite, Percentile.P99), msRaw(steadyWrite, Percentile.MAX),
				steady == null ? "" : String.format(Locale.ROOT, "%.0f", steady.recordsPerSecond()));
	}

	/** Alternating pairs of drains the RTT target needs. */
	public static final int MIN_RTT_PAIRS = 5;

	/**
	 * The benchmark's targets, each with the numbers it was judged on; measured, never
	 * asserted.
	 */
	public static List<String> targets(List<Row> rows, RedisCeiling.Result ceiling) {
		List<String> lines = new ArrayList<>();
		for (Row sawmill : rows.stream().filter(r -> r.strategy().equals("sawmill")).toList()) {
			if (sawmill.busy() == null) {
				continue;
			}
			String where = String.format(Locale.ROOT, "batch %,d at %s", sawmill.batchSize(), sawmill.endpointLabel());
			RedisCeiling.Result own = sawmill.ceilingOr(ceiling);
			if (sawmill.rttMs() == 0 && !sawmill.cluster() && own != null) {
				double ratio = sawmill.recordsPerSecond() / own.recordsPerSecond();
				String opening = sawmill.ceiling() == null || ceiling == null ? " (the run's opening ceiling)"
						: String.format(Locale.ROOT,
								" (ceiling measured right before; against the run's opening ceiling %,.0f: %.2f)",
								ceiling.recordsPerSecond(), sawmill.recordsPerSecond() / ceiling.recordsPerSecond());
				lines.add(verdict(ratio >= 0.6,
						String.format(Locale.ROOT, "Sawmill ≥ 0.6 × Redis ceiling (%s): %,.0f / %,.0f = %.2f%s", where,
								sawmill.recordsPerSecond(), own.recordsPerSecond(), ratio, opening)));
			}
			if (sawmill.rttMs() >= 1) {
				find(rows, "sawmill", 0, sawmill.batchSize()).ifPresent(direct -> lines.add(rttPairs(sawmill, direct)));
			}
			find(rows, "template", sawmill.rttMs(), sawmill.batchSize())
				.filter(t -> t.busy() != null && !sawmill.cluster())
				.ifPresent(template -> {
					double ratio = sawmill.recordsPerSecond() / template.recordsPerSecond();
					lines.add(verdict(ratio >= 2,
							String.format(Locale.ROOT, "Sawmill ≥ 2 × executePipelined (%s): %,.0f / %,.0f = %.2f",
									where, sawmill.recordsPerSecond(), template.recordsPerSecond(), ratio)));
					if (!Double.isNaN(sawmill.cpuNanosPerRecord()) && !Double.isNaN(template.cpuNanosPerRecord())) {
						double cpu = sawmill.cpuNanosPerRecord() / template.cpuNanosPerRecord();
						lines.add(verdict(cpu <= 0.5,
								String.format(Locale.ROOT,
										"Sawmill's CPU per record ≤ 0.5 × executePipelined's (%s): %s / %s = %.2f",
										where, Durations.micros(sawmill.cpuNanosPerRecord()),
										Durations.micros(template.cpuNanosPerRecord()), cpu)));
					}
				});
			if (sawmill.cluster()) {
				find(rows, "sawmill", 0, sawmill.batchSize())
					.ifPresent(standalone -> lines.addAll(cluster(sawmill, standalone)));
			}
			if (own != null && (sawmill.batchSize() == 1_000 || sawmill.batchSize() == 5_000)
					&& sawmill.steady() != null && sawmill.steady().write().samples() > 0) {
				double bound = 1.5 * (sawmill.rttMs() / 1e3 + sawmill.batchSize() / own.recordsPerSecond()) + 1e-3;
				double p99 = sawmill.steady().write().p99() / 1e9;
				lines.add(verdict(p99 <= bound, String.format(Locale.ROOT,
						"steady per-batch write P99 ≤ 1.5 × (RTT + commands ÷ ceiling) + 1 ms (%s; producer at half of %,.0f "
								+ "records/s, consumed at %,.0f, %d batches%s): %.1f ms vs %.1f ms",
						where, sawmill.busy().drainRates().get(0), sawmill.steady().recordsPerSecond(),
						sawmill.steady().write().samples(), sawmill.cluster() ? "; the single server's ceiling" : "",
						p99 * 1e3, bound * 1e3)));
			}
			if (own != null && sawmill.busy().write().samples() > 0) {
				double bound = 1.5 * (sawmill.rttMs() / 1e3 + sawmill.batchSize() / own.recordsPerSecond());
				lines.add(INFO + String.format(Locale.ROOT,
						"busy per-batch write P99 vs 1.5 × (RTT + commands ÷ ceiling), not judged (%s): %.1f ms vs %.1f ms "
								+ "(poll→commit P99: %.1f ms)",
						where, sawmill.busy().write().p99() / 1e6, bound * 1e3,
						sawmill.busy().pollToCommit().p99() / 1e6));
			}
			if (sawmill.batchSize() >= 10_000) {
				long maxHeap = Runtime.getRuntime().maxMemory();
				lines.add(verdict(maxHeap <= 512L << 20 && sawmill.fullGcs() == 0, String.format(Locale.ROOT,
						"heap ≤ 512 MB and no full GC (%s): the benchmark JVM (producer and consumers; the broker has its own) ran with max heap %d MB "
								+ "(-Xmx), peak used %d MB, %d full GCs%s",
						where, maxHeap >> 20, sawmill.peakHeapBytes() >> 20, sawmill.fullGcs(),
						(maxHeap <= 512L << 20 ? "" : " — run with -Xmx512m to judge this target")
								+ (SOFT_REFERENCES_CLEARED ? ""
										: " — run with -XX:SoftRefLRUPolicyMSPerMB=0: otherwise the "
												+ "closed Sawmill contexts of earlier drains stay softly reachable and fill the heap"))));
			}
		}
		return lines;
	}

	/**
	 * The RTT target on paired drains: after each cell's first drain, the direct cell and
	 * the one at {@code rtt} drained one right after the other, in alternating order, so
	 * drain k of one and drain k of the other (k ≥ 2) ran at nearly the same moment of a
	 * drifting machine.
	 */
	private static String rttPairs(Row rtt, Row direct) {
		List<Double> ratios = new ArrayList<>();
		List<Double> at = rtt.busy().drainRates();
		List<Double> base = direct.busy().drainRates();
		for (int k = 1; k < Math.min(at.size(), base.size()); k++) {
			ratios.add(at.get(k) / base.get(k));
		}
		String medians = String.format(Locale.ROOT, "medians of all drains %,.0f / %,.0f = %.2f",
				rtt.recordsPerSecond(), direct.recordsPerSecond(), rtt.recordsPerSecond() / direct.recordsPerSecond());
		String target = String.format(Locale.ROOT,
				"Sawmill at %s keeps ≥ 0.9 × its direct throughput, median of "
						+ "≥ %d alternating pairs of drains (batch %,d): ",
				rtt.endpointLabel(), MIN_RTT_PAIRS, rtt.batchSize());
		if (ratios.size() < MIN_RTT_PAIRS) {
			return INFO + target + "not judged, " + ratios.size() + " pairs (--rtt-pairs); " + medians;
		}
		double median = BatchRecorder.median(ratios);
		return verdict(median >= 0.9, target + String.format(Locale.ROOT,
				"%.2f over %d pairs (spread %.2f–%.2f: %s); %s", median, ratios.size(),
				ratios.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
				ratios.stream().mapToDouble(Double::doubleValue).max().orElseThrow(),
				ratios.stream().map(r -> String.format(Locale.ROOT, "%.2f", r)).collect(Collectors.joining(" ")),
				medians));
	}

	/**
	 * The cluster targets: CPU per record and throughput against the single server's,
	 * directly, same batch size.
	 */
	private static List<String> cluster(Row cluster, Row standalone) {
		List<String> lines = new ArrayList<>();
		String where = String.format(Locale.ROOT, "batch %,d, both direct", cluster.batchSize());
		if (!Double.isNaN(cluster.cpuNanosPerRecord()) && !Double.isNaN(standalone.cpuNanosPerRecord())) {
			double cpu = cluster.cpuNanosPerRecord() / standalone.cpuNanosPerRecord();
			lines.add(verdict(cpu <= 1.3,
					String.format(Locale.ROOT, "cluster CPU per record ≤ 1.3 × standalone's (%s): %s / %s = %.2f",
							where, Durations.micros(cluster.cpuNanosPerRecord()),
							Durations.micros(standalone.cpuNanosPerRecord()), cpu)));
		}
		double rate = cluster.recordsPerSecond() / standalone.recordsPerSecond();
		lines.add(verdict(rate >= 0.9,
				String.format(Locale.ROOT, "cluster records/s ≥ 0.9 × standalone's (%s): %,.0f / %,.0f = %.2f", where,
						cluster.recordsPerSecond(), standalone.recordsPerSecond(), rate)));
		return lines;
	}

	private static Optional<Row> find(List<Row> rows, String strategy, double rtt, int batch) {
		return rows.stream()
			.filter(r -> r.strategy().equals(strategy) && !r.cluster() && r.rttMs() == rtt && r.batchSize() == batch)
			.findFirst();
	}

	/** The prefix of a line that is reported, not judged. */
	private static final String INFO = "INFO    ";

	private static String verdict(boolean met, String text) {
		return (met ? "MET     " : "NOT MET ") + text;
	}

	private static String msRaw(BatchRecorder.Percentiles percentiles, Percentile which) {
		Long nanos = nanos(percentiles, which);
		return nanos == null ? "" : String.format(Locale.ROOT, "%.3f", nanos / 1e6);
	}

}
