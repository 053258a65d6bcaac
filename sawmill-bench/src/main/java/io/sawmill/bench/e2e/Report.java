package io.sawmill.bench.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The result table (Markdown and CSV) and the check of the targets, from the rows of one run. */
final class Report {

	private Report() {
	}

	static String markdownTable(List<Row> rows, RedisCeiling.Result ceiling, long backlog) {
		StringBuilder md = new StringBuilder();
		md.append("| strategy | RTT | batch | idle write P50 | idle write P99 | idle write max | busy write P50 | busy write P99 | busy write max "
				+ "| busy poll→commit P50 | busy poll→commit P99 | records/s (busy) | Redis ceiling next to it | × that ceiling | drain ")
			.append(String.format(Locale.ROOT, "%,d", backlog))
			.append(" | verified |\n");
		md.append("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
		for (Row row : rows) {
			RedisCeiling.Result own = row.ceilingOr(ceiling);
			String ratio = own == null ? "n/a" : String.format(Locale.ROOT, "%.2f", row.recordsPerSecond() / own.recordsPerSecond());
			String next = row.ceiling() != null ? String.format(Locale.ROOT, "%,.0f", row.ceiling().recordsPerSecond())
					: own == null ? "n/a" : String.format(Locale.ROOT, "%,.0f (opening)", own.recordsPerSecond());
			if (row.extrapolated()) {
				String batch = "≈ " + ms(row.sequential().batchNanos(row.batchSize())) + " *";
				md.append(String.format(Locale.ROOT, "| %s * | %s | %,d | %s | %s | n/a | %s | %s | n/a | %s | %s | %,.0f * | %s | %s | ≈ %s * | %s |%n",
						row.strategy(), Row.rttLabel(row.rttMs()), row.batchSize(), batch, batch, batch, batch, batch, batch,
						row.recordsPerSecond(), next, ratio, duration(backlog / row.recordsPerSecond()),
						row.verified() ? "yes (sample)" : "**NO**"));
				continue;
			}
			BatchRecorder.Percentiles idle = row.idle() == null ? null : row.idle().write();
			BatchRecorder.Percentiles busy = row.busyWrite();
			BatchRecorder.Percentiles busyCommit = row.busyPollToCommit();
			int drains = row.busy() == null ? 1 : row.busy().drainRates().size();
			String rate = String.format(Locale.ROOT, "%,.0f", row.recordsPerSecond())
					+ (drains > 1 ? " (median of " + drains + ")" : "");
			md.append(String.format(Locale.ROOT, "| %s | %s | %,d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
					row.strategy(), Row.rttLabel(row.rttMs()), row.batchSize(), ms(idle, Percentile.P50), ms(idle, Percentile.P99),
					ms(idle, Percentile.MAX), ms(busy, Percentile.P50), ms(busy, Percentile.P99), ms(busy, Percentile.MAX),
					ms(busyCommit, Percentile.P50), ms(busyCommit, Percentile.P99), rate, next, ratio,
					row.busy() == null ? "n/a" : duration(row.busy().spanNanos() / 1e9), row.verified() ? "yes" : "**NO**"));
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
		return nanos == null ? "n/a" : ms(nanos);
	}

	static String csv(List<Row> rows) {
		StringBuilder csv = new StringBuilder("strategy,rtt_ms,batch,extrapolated,idle_batches,idle_write_p50_ms,idle_write_p99_ms,"
				+ "idle_write_max_ms,idle_poll_to_commit_p50_ms,idle_poll_to_commit_p99_ms,busy_batches,busy_write_p50_ms,"
				+ "busy_write_p99_ms,busy_write_max_ms,busy_poll_to_commit_p50_ms,busy_poll_to_commit_p99_ms,"
				+ "busy_poll_to_commit_max_ms,records_per_s,busy_drain_s,verified,full_gcs,peak_heap_mb,"
				+ "ceiling_next_to_it_records_per_s,busy_drains_records_per_s\n");
		for (Row row : rows) {
			BatchRecorder.Summary idle = row.idle();
			BatchRecorder.Summary busy = row.busy();
			BatchRecorder.Percentiles busyWrite = row.busyWrite();
			BatchRecorder.Percentiles busyCommit = row.busyPollToCommit();
			csv.append(String.join(",", row.strategy(), Double.toString(row.rttMs()), Integer.toString(row.batchSize()),
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
					busy == null ? "" : String.format(Locale.ROOT, "%.2f", busy.spanNanos() / 1e9), Boolean.toString(row.verified()),
					Long.toString(row.fullGcs()), Long.toString(row.peakHeapBytes() >> 20),
					row.ceiling() == null ? "" : String.format(Locale.ROOT, "%.0f", row.ceiling().recordsPerSecond()),
					busy == null ? "" : busy.drainRates().stream().map(r -> String.format(Locale.ROOT, "%.0f", r))
						.collect(Collectors.joining(" "))))
				.append('\n');
		}
		return csv.toString();
	}

	/** The targets, each with the numbers it was judged on; measured, never asserted. */
	static List<String> targets(List<Row> rows, RedisCeiling.Result ceiling) {
		List<String> lines = new ArrayList<>();
		for (Row sawmill : rows.stream().filter(r -> r.strategy().equals("sawmill")).toList()) {
			if (sawmill.busy() == null) {
				continue;
			}
			String where = "batch " + String.format(Locale.ROOT, "%,d", sawmill.batchSize()) + " at " + Row.rttLabel(sawmill.rttMs());
			RedisCeiling.Result own = sawmill.ceilingOr(ceiling);
			if (sawmill.rttMs() == 0 && own != null) {
				double ratio = sawmill.recordsPerSecond() / own.recordsPerSecond();
				String opening = sawmill.ceiling() == null || ceiling == null ? " (the run's opening ceiling)"
						: String.format(Locale.ROOT, " (ceiling measured right before; against the run's opening ceiling %,.0f: %.2f)",
								ceiling.recordsPerSecond(), sawmill.recordsPerSecond() / ceiling.recordsPerSecond());
				lines.add(verdict(ratio >= 0.6, String.format(Locale.ROOT,
						"Sawmill ≥ 0.6 × Redis ceiling (%s): %,.0f / %,.0f = %.2f%s", where, sawmill.recordsPerSecond(),
						own.recordsPerSecond(), ratio, opening)));
			}
			if (sawmill.rttMs() >= 1) {
				find(rows, "sawmill", 0, sawmill.batchSize()).ifPresent(direct -> {
					double ratio = sawmill.recordsPerSecond() / direct.recordsPerSecond();
					lines.add(verdict(ratio >= 0.95, String.format(Locale.ROOT,
							"Sawmill at %s keeps ≥ 0.95 × its direct throughput (batch %,d): %,.0f / %,.0f = %.2f",
							Row.rttLabel(sawmill.rttMs()), sawmill.batchSize(), sawmill.recordsPerSecond(),
							direct.recordsPerSecond(), ratio)));
				});
			}
			find(rows, "template", sawmill.rttMs(), sawmill.batchSize()).filter(t -> t.busy() != null).ifPresent(template -> {
				double ratio = sawmill.recordsPerSecond() / template.recordsPerSecond();
				lines.add(verdict(ratio >= 2, String.format(Locale.ROOT,
						"Sawmill ≥ 2 × executePipelined (%s): %,.0f / %,.0f = %.2f", where, sawmill.recordsPerSecond(),
						template.recordsPerSecond(), ratio)));
			});
			if (own != null && sawmill.busy().write().samples() > 0) {
				double bound = 1.5 * (sawmill.rttMs() / 1e3 + sawmill.batchSize() / own.recordsPerSecond());
				double p99 = sawmill.busy().write().p99() / 1e9;
				lines.add(verdict(p99 <= bound, String.format(Locale.ROOT,
						"busy per-batch write P99 ≤ 1.5 × (RTT + commands ÷ ceiling) (%s): %.1f ms vs %.1f ms "
								+ "(poll→commit P99, not judged: %.1f ms)",
						where, p99 * 1e3, bound * 1e3, sawmill.busy().pollToCommit().p99() / 1e6)));
			}
			if (sawmill.batchSize() >= 10_000) {
				long maxHeap = Runtime.getRuntime().maxMemory();
				lines.add(verdict(maxHeap <= 512L << 20 && sawmill.fullGcs() == 0, String.format(Locale.ROOT,
						"heap ≤ 512 MB and no full GC (%s): the benchmark JVM (producer and consumers; the broker has its own) ran with max heap %d MB "
								+ "(-Xmx), peak used %d MB, %d full GCs%s",
						where, maxHeap >> 20, sawmill.peakHeapBytes() >> 20, sawmill.fullGcs(),
						maxHeap <= 512L << 20 ? "" : " — run with -Xmx512m to judge this target")));
			}
		}
		return lines;
	}

	private static Optional<Row> find(List<Row> rows, String strategy, double rtt, int batch) {
		return rows.stream()
			.filter(r -> r.strategy().equals(strategy) && r.rttMs() == rtt && r.batchSize() == batch)
			.findFirst();
	}

	private static String verdict(boolean met, String text) {
		return (met ? "MET     " : "NOT MET ") + text;
	}

	static String ms(long nanos) {
		double ms = nanos / 1e6;
		return ms >= 100 ? String.format(Locale.ROOT, "%,.0f ms", ms) : String.format(Locale.ROOT, "%.1f ms", ms);
	}

	private static String msRaw(BatchRecorder.Percentiles percentiles, Percentile which) {
		Long nanos = nanos(percentiles, which);
		return nanos == null ? "" : String.format(Locale.ROOT, "%.3f", nanos / 1e6);
	}

	static String duration(double seconds) {
		return seconds >= 120 ? String.format(Locale.ROOT, "%.1f min", seconds / 60) : String.format(Locale.ROOT, "%.1f s", seconds);
	}
}
