package io.sawmill.bench.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The result table (Markdown and CSV) and the check of the targets, from the rows of one run. */
final class Report {

	private Report() {
	}

	static String markdownTable(List<Row> rows, RedisCeiling.Result ceiling, long backlog) {
		StringBuilder md = new StringBuilder();
		md.append("| strategy | RTT | batch | idle P50 | idle P99 | idle max | busy P50 | busy P99 | busy max | records/s (busy) | Redis ceiling next to it | × that ceiling | drain ")
			.append(String.format(Locale.ROOT, "%,d", backlog))
			.append(" | verified |\n");
		md.append("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
		for (Row row : rows) {
			RedisCeiling.Result own = row.ceilingOr(ceiling);
			String ratio = own == null ? "n/a" : String.format(Locale.ROOT, "%.2f", row.recordsPerSecond() / own.recordsPerSecond());
			String next = row.ceiling() != null ? String.format(Locale.ROOT, "%,.0f", row.ceiling().recordsPerSecond())
					: own == null ? "n/a" : String.format(Locale.ROOT, "%,.0f (opening)", own.recordsPerSecond());
			if (row.extrapolated()) {
				String batch = "≈ " + ms(row.sequential().batchNanos(row.batchSize())) + " *";
				md.append(String.format(Locale.ROOT, "| %s * | %s | %,d | %s | %s | %s | %s | %s | %s | %,.0f * | %s | %s | ≈ %s * | %s |%n",
						row.strategy(), Row.rttLabel(row.rttMs()), row.batchSize(), batch, batch, "n/a", batch, batch, "n/a",
						row.recordsPerSecond(), next, ratio, duration(backlog / row.recordsPerSecond()),
						row.verified() ? "yes (sample)" : "**NO**"));
				continue;
			}
			md.append(String.format(Locale.ROOT, "| %s | %s | %,d | %s | %s | %s | %s | %s | %s | %,.0f | %s | %s | %s | %s |%n",
					row.strategy(), Row.rttLabel(row.rttMs()), row.batchSize(), row.idle() == null ? "n/a" : ms(row.idle().p50()),
					row.idle() == null ? "n/a" : ms(row.idle().p99()), row.idle() == null ? "n/a" : ms(row.idle().max()),
					row.busy() == null ? "n/a" : ms(row.busy().p50()), row.busy() == null ? "n/a" : ms(row.busy().p99()),
					row.busy() == null ? "n/a" : ms(row.busy().max()), row.recordsPerSecond(), next, ratio,
					row.busy() == null ? "n/a" : duration(row.busy().spanNanos() / 1e9), row.verified() ? "yes" : "**NO**"));
		}
		return md.toString();
	}

	static String csv(List<Row> rows) {
		StringBuilder csv = new StringBuilder(
				"strategy,rtt_ms,batch,extrapolated,idle_batches,idle_p50_ms,idle_p99_ms,idle_max_ms,busy_batches,busy_p50_ms,busy_p99_ms,busy_max_ms,records_per_s,busy_drain_s,verified,full_gcs,peak_heap_mb,ceiling_next_to_it_records_per_s\n");
		for (Row row : rows) {
			BatchRecorder.Summary idle = row.idle();
			BatchRecorder.Summary busy = row.busy();
			csv.append(String.format(Locale.ROOT, "%s,%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.0f,%s,%s,%d,%d,%s%n", row.strategy(),
					row.rttMs(), row.batchSize(), row.extrapolated(), idle == null ? "" : idle.batches(),
					idle == null ? "" : msRaw(idle.p50()), idle == null ? "" : msRaw(idle.p99()),
					idle == null ? "" : msRaw(idle.max()), busy == null ? "" : busy.batches(), msRaw(row.busyP50()),
					msRaw(row.busyP99()), busy == null ? "" : msRaw(busy.max()), row.recordsPerSecond(),
					busy == null ? "" : String.format(Locale.ROOT, "%.2f", busy.spanNanos() / 1e9), row.verified(),
					row.fullGcs(), row.peakHeapBytes() >> 20,
					row.ceiling() == null ? "" : String.format(Locale.ROOT, "%.0f", row.ceiling().recordsPerSecond())));
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
			if (own != null) {
				double bound = 1.5 * (sawmill.rttMs() / 1e3 + sawmill.batchSize() / own.recordsPerSecond());
				double p99 = sawmill.busy().p99() / 1e9;
				lines.add(verdict(p99 <= bound, String.format(Locale.ROOT,
						"busy per-batch P99 ≤ 1.5 × (RTT + commands ÷ ceiling) (%s): %.1f ms vs %.1f ms", where, p99 * 1e3,
						bound * 1e3)));
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

	private static String msRaw(long nanos) {
		return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
	}

	static String duration(double seconds) {
		return seconds >= 120 ? String.format(Locale.ROOT, "%.1f min", seconds / 60) : String.format(Locale.ROOT, "%.1f s", seconds);
	}
}
