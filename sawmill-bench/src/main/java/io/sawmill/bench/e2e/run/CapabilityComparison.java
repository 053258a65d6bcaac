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
package io.sawmill.bench.e2e.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.sawmill.bench.e2e.measure.CommandStats;
import io.sawmill.bench.e2e.measure.Verification;
import io.sawmill.bench.e2e.report.CapabilityRow;
import io.sawmill.bench.e2e.workload.Capability;
import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.bench.e2e.workload.KeyDistribution;
import io.sawmill.bench.e2e.workload.Workload;
import io.sawmill.testkit.KafkaBrokerProcess;

/**
 * The capability comparison ({@code --capabilities}): Sawmill's busy drain with each
 * capability variant on two backlogs of versioned records, uniform and hot keys (zipf),
 * at every endpoint (one server at each RTT, and the cluster) and batch size of the run,
 * {@code --sawmill-drains} times each. The drains are interleaved (round by round, the
 * variants of one cell one right after the other), so that each variant meets the same
 * moments of a machine whose speed drifts. Each drain goes into a flushed Redis with a
 * new consumer group; Redis' command counts are reset before it and read after it
 * ({@link CommandStats}), and it is verified after. A variant whose property this build
 * does not know is reported as not available, without numbers; a variant that fails
 * otherwise fails the run.
 */
public final class CapabilityComparison {

	private static final List<KeyDistribution> WORKLOADS = List.of(KeyDistribution.UNIFORM, KeyDistribution.ZIPF);

	private final BenchOptions options;

	private final Map<KeyDistribution, Workload> workloads = new LinkedHashMap<>();

	private final VariantDrainer drainer;

	public CapabilityComparison(Cell.Run run, KafkaBrokerProcess kafka) {
		this.options = run.options();
		this.drainer = new VariantDrainer(run, kafka, "capabilities");
		for (KeyDistribution distribution : WORKLOADS) {
			workloads.put(distribution, options.workload(distribution, true));
		}
	}

	/**
	 * Runs every cell over the endpoints (one server at each RTT, and the cluster with
	 * {@code --cluster=on}) and returns the rows.
	 */
	public List<CapabilityRow> run(List<Endpoint> endpoints) throws Exception {
		List<Endpoint> servers = endpoints;
		for (KeyDistribution distribution : WORKLOADS) {
			drainer.produce(topic(distribution), workloads.get(distribution), options.backlog(), "backlog");
		}
		warmUp(servers.get(0));
		Map<CellKey, VariantDrainer.Drains> cells = new LinkedHashMap<>();
		for (int drain = 1; drain <= options.sawmillDrains(); drain++) {
			for (KeyDistribution distribution : WORKLOADS) {
				for (Endpoint endpoint : servers) {
					for (int batch : options.batchSizes()) {
						for (Capability capability : options.capabilities()) {
							if (!drainer.runs(capability.label())) {
								continue;
							}
							VariantDrainer.Drains cell = cells.computeIfAbsent(
									key(distribution, capability, endpoint, batch), k -> new VariantDrainer.Drains());
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

	/**
	 * One drain of a cell, recorded into {@code cell}; a start-up failure marks the
	 * variant instead.
	 */
	private void drain(KeyDistribution distribution, Capability capability, Endpoint endpoint, int batch, int drain,
			VariantDrainer.Drains cell) throws Exception {
		Workload workload = workloads.get(distribution);
		String label = String.format(Locale.ROOT, "capabilities: %s, %s, RTT %s, batch %,d (drain %d of %d)",
				distribution.label(), capability.label(), endpoint.label(), batch, drain, options.sawmillDrains());
		String group = String.format(Locale.ROOT, "caps-%s-%s-%s-%d-%d", distribution.label(), capability.label(),
				endpoint.label().replace(' ', '_'), batch, drain);
		drainer.drain(capability.label(), capability.properties(), topic(distribution), group, batch, endpoint, label,
				() -> Verification.verify(endpoint, workload, options.backlog(), options.verifySample(), options.ttl(),
						capability.extras()),
				cell);
	}

	/**
	 * Each variant drains a backlog of hot-key records once, unreported, so that its code
	 * is compiled before it is measured (the run's warm-up compiled the plain path only);
	 * this also finds the variants this build does not know before any backlog is
	 * drained. Nothing with {@code --warm-up=0}: then the first measured drain finds
	 * them.
	 */
	private void warmUp(Endpoint endpoint) throws Exception {
		int records = options.warmUp();
		if (records == 0) {
			return;
		}
		String topic = "capabilities-warm-up";
		drainer.produce(topic, workloads.get(KeyDistribution.ZIPF), records, "warm-up");
		Map<String, Map<String, String>> variants = new LinkedHashMap<>();
		options.capabilities().forEach(capability -> variants.put(capability.label(), capability.properties()));
		drainer.warmUp(variants, topic, records, endpoint);
	}

	private CapabilityRow row(KeyDistribution distribution, Capability capability, Endpoint endpoint, int batch,
			VariantDrainer.Drains cell) {
		String why = drainer.whyNot(capability.label());
		if (cell == null || cell.isEmpty()) {
			return CapabilityRow.notRun(distribution.label(), capability, endpoint.rtt(), endpoint.cluster(), batch,
					why == null ? "not run" : why, !drainer.unavailable(capability.label()));
		}
		// a variant that failed after some drains keeps them, and fails verification
		boolean failed = drainer.failed(capability.label());
		return new CapabilityRow(distribution.label(), capability, endpoint.rtt(), endpoint.cluster(), batch,
				options.backlog(), cell.pooled(), cell.commandsPerRecord(options.backlog()), cell.medianCounts(),
				cell.ok() && !failed, cell.verification() + (failed ? "; " + why : ""), cell.fullGcs(), cell.peakHeap(),
				null);
	}

	private static String topic(KeyDistribution distribution) {
		return "capabilities-" + distribution.label();
	}

	private static CellKey key(KeyDistribution distribution, Capability capability, Endpoint endpoint, int batch) {
		return new CellKey(distribution, capability, endpoint.label(), batch);
	}

	private record CellKey(KeyDistribution distribution, Capability capability, String endpoint, int batch) {
	}

}
