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
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.sawmill.bench.e2e.measure.BatchRecorder;
import io.sawmill.bench.e2e.measure.Verification;
import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.testkit.KafkaBrokerProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * Each consumer strategy the run measures drains a backlog once, unreported, so that the
 * rows measure compiled code (a service runs for hours) and JIT warm-up does not favour
 * whichever strategy runs later. A strategy left out of {@code --strategies} is not
 * warmed up either: its code would only change the JIT's profile of the libraries both
 * use (Lettuce, the Kafka client). Then (not with {@code --quick}, which must stay under
 * 2 minutes) each runs one whole cell (idle and busy, direct, the first batch size),
 * unreported, because after the drain alone the first rows still ran slower than the same
 * cell later in the run (docs/benchmarks.md, Method). Sawmill then drains the warm-up
 * backlog into the cluster as well, whose path runs other code.
 */
public final class WarmUp {

	private final Cell.Run run;

	private final BenchOptions options;

	private final KafkaBrokerProcess kafka;

	public WarmUp(Cell.Run run, KafkaBrokerProcess kafka) {
		this.run = run;
		this.options = run.options();
		this.kafka = kafka;
	}

	/**
	 * Warms up against {@code redis} directly, then against the cluster if there is one.
	 */
	public void run(RedisServerProcess redis, Optional<Endpoint> cluster) throws Exception {
		int records = options.warmUp();
		List<String> consumers = Stream.of("template", "sawmill").filter(options.strategies()::contains).toList();
		if (records == 0 || consumers.isEmpty()) {
			return;
		}
		kafka.createTopic("warm-up", options.partitions());
		Producing.produce(kafka.bootstrapServers(), "warm-up", run.workload(), records, 0, n -> {
		});
		Endpoint direct = Endpoint.standalone(0, null, redis);
		for (String strategy : consumers) {
			drain(strategy, direct, records);
		}
		for (String strategy : options.quick() ? List.<String>of() : consumers) {
			Cell cell = new Cell(run, kafka, redis, strategy, direct, options.batchSizes().get(0), true);
			cell.idle();
			cell.drain(1);
		}
		if (consumers.contains("sawmill") && cluster.isPresent()) {
			// the cluster path runs other code (Lettuce's cluster API): warm it up too,
			// after the standalone path
			drain("sawmill", cluster.get(), records);
			Verification.flushAll(cluster.get());
		}
		Verification.flushAll(direct);
	}

	// the try keeps the consumer running for its body, which never calls it
	@SuppressWarnings("try")
	private void drain(String strategy, Endpoint endpoint, int records) throws Exception {
		BatchRecorder recorder = new BatchRecorder();
		run.status().step("warm-up " + strategy + (endpoint.cluster() ? " (cluster)" : ""), records, recorder::records);
		try (AutoCloseable consumer = run.consumer(strategy, kafka, "warm-up",
				"warm-up-" + strategy + (endpoint.cluster() ? "-cluster" : ""), 1000, endpoint, recorder)) {
			Cell.await(recorder, records, Duration.ofMinutes(2));
		}
	}

}
