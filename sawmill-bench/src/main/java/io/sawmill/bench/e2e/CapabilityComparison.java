package io.sawmill.bench.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.sawmill.testkit.KafkaBrokerProcess;

/**
 * The capability comparison ({@code --capabilities}): Sawmill's busy drain with each capability
 * variant on two backlogs of versioned records, uniform and hot keys (zipf), at every RTT (one
 * server) and batch size of the run, {@code --sawmill-drains} times each. The drains are interleaved
 * (round by round, the variants of one cell one right after the other), so that each variant meets
 * the same moments of a machine whose speed drifts. Each drain goes into a flushed Redis with a new
 * consumer group; Redis' command counts are reset before it and read after it ({@link CommandStats}),
 * and it is verified after. A variant whose property this build does not know is reported as not
 * available, without numbers; a variant that fails otherwise fails the run.
 */
final class CapabilityComparison {

	private static final List<KeyDistribution> WORKLOADS = List.of(KeyDistribution.UNIFORM, KeyDistribution.ZIPF);

	private final Cell.Run run;
	private final BenchOptions options;
	private final KafkaBrokerProcess kafka;
	private final Map<KeyDistribution, Workload> workloads = new LinkedHashMap<>();
	/** Why a variant cannot run, by variant: not available in this build, or failed to start. */
	private final Map<Capability, String> unavailable = new LinkedHashMap<>();
	private final Map<Capability, String> failed = new LinkedHashMap<>();

	CapabilityComparison(Cell.Run run, KafkaBrokerProcess kafka) {
		this.run = run;
		this.options = run.options();
		this.kafka = kafka;
		for (KeyDistribution distribution : WORKLOADS) {
			workloads.put(distribution, options.workload(distribution, true));
		}
	}

	/** Runs every cell over the standalone endpoints (a cluster is left out) and returns the rows. */
	List<CapabilityRow> run(List<Endpoint> endpoints) throws Exception {
		List<Endpoint> servers = endpoints.stream().filter(endpoint -> !endpoint.cluster()).toList();
		for (KeyDistribution distribution : WORKLOADS) {
			produce(topic(distribution), workloads.get(distribution), options.backlog(), "backlog");
		}
		warmUp(servers.get(0));
		Map<CellKey, Drains> cells = new LinkedHashMap<>();
		for (int drain = 1; drain <= options.sawmillDrains(); drain++) {
			for (KeyDistribution distribution : WORKLOADS) {
				for (Endpoint endpoint : servers) {
					for (int batch : options.batchSizes()) {
						for (Capability capability : options.capabilities()) {
							if (unavailable.containsKey(capability) || failed.containsKey(capability)) {
								continue;
							}
							Drains cell = cells.computeIfAbsent(key(distribution, capability, endpoint, batch),
									k -> new Drains());
							drain(distribution, capability, endpoint, batch, drain, cell);
						}
					}
				}
			}
		}
		List<CapabilityRow> rows = new ArrayList<>();
		for (KeyDistribution distribution : WORKLOADS) {
			for (Endpoint endpoint : servers) {
				for (int batch : options.batchSizes()) {
					for (Capability capability : options.capabilities()) {
						rows.add(row(distribution, capability, endpoint, batch,
								cells.get(key(distribution, capability, endpoint, batch))));
					}
				}
			}
		}
		return rows;
	}

	/** One drain of a cell, recorded into {@code cell}; a start-up failure marks the variant instead. */
	private void drain(KeyDistribution distribution, Capability capability, Endpoint endpoint, int batch, int drain,
			Drains cell) throws Exception {
		Workload workload = workloads.get(distribution);
		String label = String.format(Locale.ROOT, "capabilities: %s, %s, RTT %s, batch %,d (drain %d of %d)",
				distribution.label(), capability.label(), endpoint.label(), batch, drain, options.sawmillDrains());
		Verification.flushAll(endpoint);
		BatchRecorder busy = new BatchRecorder(ConsumerCpu::nanos, options.backlog());
		CommandStats.Counts counts;
		long fullGcsBefore = Cell.fullGcs();
		run.status().step(label, options.backlog(), busy::records);
		try (CommandStats stats = CommandStats.reset(endpoint)) {
			if (!consume(capability, topic(distribution), String.format(Locale.ROOT, "caps-%s-%s-%s-%d-%d",
					distribution.label(), capability.label(), endpoint.label().replace(' ', '_'), batch, drain), batch,
					endpoint, busy, options.backlog(), Duration.ofMinutes(options.quick() ? 2 : 6))) {
				return;
			}
			counts = stats.read();
		}
		cell.fullGcs += Cell.fullGcs() - fullGcsBefore;
		cell.peakHeap = Math.max(cell.peakHeap, run.status().peakHeapBytes());
		Verification.Result verified = Verification.verify(endpoint, workload, options.backlog(), options.verifySample(),
				options.ttl(), capability.extras());
		BatchRecorder.Summary summary = busy.summary();
		boolean complete = summary.records() >= options.backlog();
		cell.add(busy, counts, verified.ok() && complete,
				"drain " + drain + " " + verified.text() + (complete ? "" : "; INCOMPLETE (timed out)"));
		run.status().println(String.format(Locale.ROOT,
				"%-62s %,9.0f records/s, %.2f Redis commands per record (%s), write P50 %s P99 %s | %s", label,
				summary.recordsPerSecond(), counts.perRecord(options.backlog()), counts.perRecordByCommand(options.backlog()),
				Report.ms(summary.write().p50()), Report.ms(summary.write().p99()), verified.text()));
	}

	/**
	 * Runs the variant's consumer until {@code records} are recorded or the timeout: true when it
	 * started. When it cannot start, notes why and marks the variant: not available when this build
	 * does not know its property, failed otherwise.
	 */
	private boolean consume(Capability capability, String topic, String group, int batch, Endpoint endpoint,
			BatchRecorder recorder, long records, Duration timeout) throws Exception {
		SawmillRunner consumer;
		try {
			consumer = new SawmillRunner(kafka.bootstrapServers(), topic, group, batch, endpoint, options.ttl(),
					capability.properties(), recorder);
		}
		catch (RuntimeException ex) {
			String unknown = capability.unknownPropertyIn(ex);
			if (unknown != null) {
				unavailable.put(capability, "not available in this build (unknown property " + unknown + ")");
				run.note("capability " + capability.label() + " " + capability.properties() + ": not available in this build, "
						+ "Sawmill refused the unknown property " + unknown + "; not measured");
			}
			else {
				String why = String.valueOf(ex.getMessage()).lines().findFirst().orElse(ex.toString());
				failed.put(capability, "FAILED: Sawmill did not start with " + capability.properties() + ": " + why);
				run.note("capability " + capability.label() + ": FAILED, Sawmill did not start with "
						+ capability.properties() + ": " + ex);
			}
			return false;
		}
		try (consumer) {
			Cell.await(recorder, records, timeout);
		}
		return true;
	}

	/**
	 * Each variant drains a backlog of hot-key records once, unreported, so that its code is compiled
	 * before it is measured (the run's warm-up compiled the plain path only); this also finds the
	 * variants this build does not know before any backlog is drained. Nothing with
	 * {@code --warm-up=0}: then the first measured drain finds them.
	 */
	private void warmUp(Endpoint endpoint) throws Exception {
		int records = options.warmUp();
		if (records == 0) {
			return;
		}
		String topic = "capabilities-warm-up";
		produce(topic, workloads.get(KeyDistribution.ZIPF), records, "warm-up");
		for (Capability capability : options.capabilities()) {
			Verification.flushAll(endpoint);
			BatchRecorder recorder = new BatchRecorder();
			run.status().step("capabilities: warm-up " + capability.label(), records, recorder::records);
			if (consume(capability, topic, "caps-warm-up-" + capability.label(), options.batchSizes().get(0), endpoint,
					recorder, records, Duration.ofMinutes(2)) && recorder.records() < records) {
				failed.put(capability, "FAILED: the warm-up drain consumed " + recorder.records() + " of " + records
						+ " records in 2 min");
				run.note("capability " + capability.label() + ": " + failed.get(capability));
			}
		}
		Verification.flushAll(endpoint);
	}

	private void produce(String topic, Workload workload, long records, String what) throws Exception {
		kafka.createTopic(topic, options.partitions());
		AtomicLong produced = new AtomicLong();
		run.status().step("capabilities: producing the " + topic + " " + what, records, produced::get);
		Producing.produce(kafka.bootstrapServers(), topic, workload, records, 0, produced::set);
		Workload.Written written = workload.written(records);
		run.note(String.format(Locale.ROOT,
				"capabilities: %s %s of %,d versioned records writes %,d keys; the hottest, %s, %,d times (%.1f %%)", topic,
				what, records, written.keys(), workload.key(written.hottest()), written.hottestRecords(),
				100.0 * written.hottestRecords() / records));
	}

	private CapabilityRow row(KeyDistribution distribution, Capability capability, Endpoint endpoint, int batch,
			Drains cell) {
		String why = unavailable.containsKey(capability) ? unavailable.get(capability) : failed.get(capability);
		if (cell == null || cell.busy.isEmpty()) {
			return CapabilityRow.notRun(distribution.label(), capability, endpoint.rtt(), batch,
					why == null ? "not run" : why, !unavailable.containsKey(capability));
		}
		// a variant that failed after some drains keeps them, and fails verification
		boolean ok = cell.ok && !failed.containsKey(capability);
		String verification = String.join("; ", cell.verified) + (failed.containsKey(capability) ? "; " + why : "");
		List<Double> perRecord = cell.counts.stream().map(counts -> counts.perRecord(options.backlog())).toList();
		CommandStats.Counts median = cell.counts.stream()
			.sorted(Comparator.comparingLong(CommandStats.Counts::total))
			.toList()
			.get((cell.counts.size() - 1) / 2);
		return new CapabilityRow(distribution.label(), capability, endpoint.rtt(), batch, options.backlog(),
				BatchRecorder.pooled(cell.busy),
				perRecord, median, ok, verification, cell.fullGcs, cell.peakHeap, null);
	}

	private static String topic(KeyDistribution distribution) {
		return "capabilities-" + distribution.label();
	}

	private static CellKey key(KeyDistribution distribution, Capability capability, Endpoint endpoint, int batch) {
		return new CellKey(distribution, capability, endpoint.rtt(), batch);
	}

	private record CellKey(KeyDistribution distribution, Capability capability, double rtt, int batch) {
	}

	/** The drains of one cell so far. */
	private static final class Drains {

		private final List<BatchRecorder> busy = new ArrayList<>();
		private final List<CommandStats.Counts> counts = new ArrayList<>();
		private final List<String> verified = new ArrayList<>();
		private boolean ok = true;
		private long fullGcs;
		private long peakHeap;

		void add(BatchRecorder recorder, CommandStats.Counts drained, boolean good, String verification) {
			busy.add(recorder);
			counts.add(drained);
			verified.add(verification);
			ok &= good;
		}
	}
}
