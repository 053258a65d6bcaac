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

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import io.sawmill.bench.e2e.measure.SequentialSample;
import io.sawmill.bench.e2e.measure.Verification;
import io.sawmill.bench.e2e.report.Durations;
import io.sawmill.bench.e2e.report.Row;
import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.testkit.KafkaBrokerProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * Measures the rows of the main table, in the table's order: per endpoint (the RTTs, then
 * the cluster), the sequential sample, then per batch size the template loop's cell and
 * Sawmill's (idle, the ceiling, a busy drain, for Sawmill the steady load); the cluster
 * runs Sawmill only. Then Sawmill's further drains, in the {@link DrainRounds}.
 */
public final class MainTable {

	private final Cell.Run run;

	private final BenchOptions options;

	private final KafkaBrokerProcess kafka;

	private final RedisServerProcess redis;

	public MainTable(Cell.Run run, KafkaBrokerProcess kafka, RedisServerProcess redis) {
		this.run = run;
		this.options = run.options();
		this.kafka = kafka;
		this.redis = redis;
	}

	/** Every row, measured against {@code endpoints} in their order. */
	public List<Row> measure(List<Endpoint> endpoints) throws Exception {
		List<Supplier<Row>> table = new ArrayList<>();
		Map<DrainRounds.Slot, Cell> sawmillCells = new LinkedHashMap<>();
		List<DrainRounds.Slot> slots = new ArrayList<>();
		for (Endpoint endpoint : endpoints) {
			for (int batch : options.batchSizes()) {
				slots.add(new DrainRounds.Slot(endpoint.rtt(), endpoint.cluster(), batch));
			}
		}
		DrainRounds rounds = new DrainRounds(slots, options.sawmillDrains(), options.rttPairs());
		for (Endpoint endpoint : endpoints) {
			if (options.strategies().contains("sequential") && !endpoint.cluster()) {
				sequential(endpoint).forEach(row -> table.add(() -> row));
			}
			for (int batch : options.batchSizes()) {
				for (String strategy : List.of("template", "sawmill")) {
					if (options.strategies().contains(strategy)
							&& (strategy.equals("sawmill") || !endpoint.cluster())) {
						Cell cell = new Cell(run, kafka, redis, strategy, endpoint, batch, false);
						DrainRounds.Slot slot = new DrainRounds.Slot(endpoint.rtt(), endpoint.cluster(), batch);
						boolean sawmill = strategy.equals("sawmill");
						cell.idle();
						cell.drain(sawmill ? rounds.drains(slot) : 1);
						if (sawmill) {
							cell.steady();
							sawmillCells.put(slot, cell);
						}
						table.add(cell::row);
					}
				}
			}
		}
		for (List<DrainRounds.Slot> round : rounds.rounds(options.batchSizes())) {
			for (DrainRounds.Slot slot : round) {
				Cell cell = sawmillCells.get(slot);
				if (cell != null) {
					cell.drain(rounds.drains(slot));
				}
			}
		}
		return table.stream().map(Supplier::get).toList();
	}

	private List<Row> sequential(Endpoint endpoint) throws InterruptedException {
		double rtt = endpoint.rtt();
		Endpoint direct = Endpoint.standalone(0, null, redis);
		Verification.flushAll(direct);
		AtomicLong done = new AtomicLong();
		run.status().step("sequential sample at RTT " + Endpoint.rttLabel(rtt), options.sequentialSample(), done::get);
		SequentialSample.Result sample = SequentialSample.run(run.workload(), options.sequentialSample(),
				Duration.ofSeconds(options.quick() ? 5 : 15), endpoint.host(), endpoint.port(), options.ttl(),
				done::set);
		Verification.Result verified = Verification.verify(direct, run.workload(), sample.records(),
				options.verifySample(), options.ttl());
		run.note(String.format(Locale.ROOT,
				"sequential at RTT %s: measured %,d records (2 round trips each), %.3f ms per record (P50 %.3f, P99 %.3f), "
						+ "%s CPU per record; batch numbers are that × batch size. Redis %s",
				Endpoint.rttLabel(rtt), sample.records(), sample.perRecordNanos() / 1e6, sample.p50() / 1e6,
				sample.p99() / 1e6, Durations.micros(sample.cpuNanosPerRecord()), verified.text()));
		return options.batchSizes()
			.stream()
			.map(batch -> new Row("sequential", rtt, false, batch, null, null, null, sample, verified.ok(),
					verified.text(), 0, 0, null))
			.toList();
	}

}
