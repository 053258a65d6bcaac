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
package io.sawmill.metrics.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.redis.internal.ReplicaShortfall;

class SawmillMetricsTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void shouldAddTheConfiguredSloBoundariesToBothTimers() {
		SawmillMetrics metrics = new SawmillMetrics(registry, "g1",
				List.of(Duration.ofMillis(200), Duration.ofSeconds(2)));
		metrics.batchCommitted(Duration.ofMillis(150), 10);
		metrics.pipelineCompleted(Duration.ofMillis(150), 20);

		for (String timer : List.of("sawmill.batch.duration", "sawmill.redis.pipeline.duration")) {
			CountAtBucket[] buckets = registry.get(timer).timer().takeSnapshot().histogramCounts();
			assertThat(Arrays.stream(buckets).map(b -> b.bucket(java.util.concurrent.TimeUnit.MILLISECONDS))).as(timer)
				.contains(200.0, 2000.0);
			assertThat(Arrays.stream(buckets)
				.filter(b -> b.bucket(java.util.concurrent.TimeUnit.MILLISECONDS) == 200.0)
				.findFirst()
				.orElseThrow()
				.count()).isEqualTo(1);
		}
	}

	@Test
	void shouldRejectAnSloBucketOutsideTheHistogramNamingIt() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SawmillMetrics(registry, "g1", List.of(Duration.ZERO)))
			.withMessage("sloBuckets must be greater than 0 and at most PT5M, but was PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SawmillMetrics(registry, "g1", List.of(Duration.ofMinutes(6))))
			.withMessageEndingWith("but was PT6M");
	}

	@Test
	void shouldCountRecordsHandledWithoutCountingRetriesTwice() {
		SawmillMetrics metrics = new SawmillMetrics(registry, "g1");
		metrics.records("t", RecordOutcome.WRITTEN, 7);
		metrics.records("t", RecordOutcome.SKIPPED, 2);
		metrics.records("t", RecordOutcome.INVALID, 1);
		metrics.records("t", RecordOutcome.RETRIED, 7);

		assertThat(metrics.recordsHandled()).isEqualTo(10);
	}

	@Test
	void shouldGaugeTheMastersShortOfReplicasByWhatBatchesDo() {
		SawmillMetrics metrics = new SawmillMetrics(registry, "g1");
		List<ReplicaShortfall> shortfalls = new ArrayList<>();
		metrics.replicaShortfalls(() -> List.copyOf(shortfalls));
		assertThat(registry.get("sawmill.redis.replica.shortfall").gauges()).hasSize(3)
			.allSatisfy(gauge -> assertThat(gauge.value()).isZero());

		shortfalls.add(new ReplicaShortfall("10.0.0.1:6379", 0, 1, Instant.EPOCH, ReplicaShortfall.State.PROCEEDING));
		shortfalls.add(new ReplicaShortfall("10.0.0.2:6379", 0, 1, Instant.EPOCH, ReplicaShortfall.State.PROCEEDING));

		assertThat(registry.get("sawmill.redis.replica.shortfall")
			.tags("group", "g1", "state", "proceeding")
			.gauge()
			.value()).isEqualTo(2);
		assertThat(registry.get("sawmill.redis.replica.shortfall").tag("state", "waiting").gauge().value()).isZero();
	}

}
