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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.sawmill.bench.e2e.measure.RouteVerification;
import io.sawmill.bench.e2e.report.RouteRow;
import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.bench.e2e.workload.Route;
import io.sawmill.bench.e2e.workload.Workload;
import io.sawmill.testkit.KafkaBrokerProcess;

/**
 * The route comparison ({@code --routes}): Sawmill's busy drain of one backlog of
 * versioned records (the run's {@code --key-distribution}) with the built-in mapping path
 * and with one declarative route of each type asked for, at every RTT (one server) and
 * batch size of the run, {@code --sawmill-drains} times each, interleaved (round by
 * round, the variants of one cell right after one another, in reverse order every second
 * round) so that each meets the same moments of a machine whose speed drifts. Each drain
 * goes into a flushed Redis with a new consumer group, its Redis commands are counted,
 * and it is verified after by {@link RouteVerification} ({@link VariantDrainer}). A
 * variant this build does not know is reported as not available; one that fails otherwise
 * fails the run.
 */
public final class RouteComparison {

	/**
	 * The topic of the backlog; it also names the one key of the sorted set, set and
	 * stream routes.
	 */
	static final String TOPIC = "routes";

	private final BenchOptions options;

	private final Workload workload;

	private final VariantDrainer drainer;

	public RouteComparison(Cell.Run run, KafkaBrokerProcess kafka) {
		this.options = run.options();
		this.workload = options.workload(options.keyDistribution(), true);
		this.drainer = new VariantDrainer(run, kafka, "routes");
	}

	/**
	 * Runs every cell over the standalone endpoints (a cluster is left out) and returns
	 * the rows.
	 */
	public List<RouteRow> run(List<Endpoint> endpoints) throws Exception {
		List<Endpoint> servers = endpoints.stream().filter(endpoint -> !endpoint.cluster()).toList();
		drainer.produce(TOPIC, workload, options.backlog(), "backlog");
		warmUp(servers.get(0));
		Map<String, VariantDrainer.Drains> cells = new LinkedHashMap<>();
		for (int drain = 1; drain <= options.sawmillDrains(); drain++) {
			for (Endpoint endpoint : servers) {
				for (int batch : options.batchSizes()) {
					for (Route route : order(options.routes(), drain)) {
						if (drainer.runs(route.label())) {
							drain(route, endpoint, batch, drain, cells.computeIfAbsent(key(route, endpoint, batch),
									k -> new VariantDrainer.Drains()));
						}
					}
				}
			}
		}
		List<RouteRow> rows = new ArrayList<>();
		for (Endpoint endpoint : servers) {
			for (int batch : options.batchSizes()) {
				for (Route route : options.routes()) {
					rows.add(row(route, endpoint, batch, cells.get(key(route, endpoint, batch))));
				}
			}
		}
		return rows;
	}

	/**
	 * The variants in the order given in odd rounds and reversed in even ones, so that no
	 * variant always drains first in its cell or right after the same other one.
	 */
	static List<Route> order(List<Route> routes, int round) {
		List<Route> order = new ArrayList<>(routes);
		if (round % 2 == 0) {
			Collections.reverse(order);
		}
		return order;
	}

	private void drain(Route route, Endpoint endpoint, int batch, int drain, VariantDrainer.Drains cell)
			throws Exception {
		String label = String.format(Locale.ROOT, "routes: %s, RTT %s, batch %,d (drain %d of %d)", route.label(),
				endpoint.label(), batch, drain, options.sawmillDrains());
		String group = String.format(Locale.ROOT, "routes-%s-%s-%d-%d", route.label(),
				endpoint.label().replace(' ', '_'), batch, drain);
		drainer.drain(route.label(), route.properties(TOPIC, options.ttl()), TOPIC, group, batch, endpoint, label,
				() -> RouteVerification.verify(route, endpoint, workload, options.backlog(), options.verifySample(),
						options.ttl(), TOPIC),
				cell);
	}

	/**
	 * Each variant drains {@code --warm-up} records of the same shape once, unreported,
	 * so that its code (the route's mapper and the commands of its type) is compiled
	 * before it is measured; nothing with {@code --warm-up=0}.
	 */
	private void warmUp(Endpoint endpoint) throws Exception {
		int records = options.warmUp();
		if (records == 0) {
			return;
		}
		String topic = TOPIC + "-warm-up";
		drainer.produce(topic, workload, records, "warm-up");
		Map<String, Map<String, String>> variants = new LinkedHashMap<>();
		options.routes().forEach(route -> variants.put(route.label(), route.properties(topic, options.ttl())));
		drainer.warmUp(variants, topic, records, endpoint);
	}

	private RouteRow row(Route route, Endpoint endpoint, int batch, VariantDrainer.Drains cell) {
		String why = drainer.whyNot(route.label());
		if (cell == null || cell.isEmpty()) {
			return RouteRow.notRun(route, endpoint.rtt(), batch, why == null ? "not run" : why,
					!drainer.unavailable(route.label()));
		}
		// a variant that failed after some drains keeps them, and fails verification
		boolean failed = drainer.failed(route.label());
		return new RouteRow(route, endpoint.rtt(), batch, options.backlog(), cell.pooled(),
				cell.commandsPerRecord(options.backlog()), cell.medianCounts(), cell.ok() && !failed,
				cell.verification() + (failed ? "; " + why : ""), null);
	}

	private static String key(Route route, Endpoint endpoint, int batch) {
		return route.label() + "@" + endpoint.rtt() + "/" + batch;
	}

}
