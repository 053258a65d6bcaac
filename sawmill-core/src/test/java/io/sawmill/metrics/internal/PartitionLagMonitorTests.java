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
import static org.mockito.ArgumentMatchers.anyMap;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.testkit.MutableClock;

/** Against a mocked Admin whose offsets the test sets, and a clock the test moves. */
class PartitionLagMonitorTests {

	private static final TopicPartition P0 = new TopicPartition("events", 0);

	private static final TopicPartition P1 = new TopicPartition("events", 1);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final SawmillMetrics metrics = new SawmillMetrics(registry, "g1");

	private final Map<TopicPartition, Long> starts = new HashMap<>();

	private final Map<TopicPartition, Long> ends = new HashMap<>();

	private final Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();

	private final Map<TopicPartition, Long> recordTimestamps = new HashMap<>();

	private final List<Map<TopicPartition, Long>> timestampReads = new ArrayList<>();

	private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));

	private final Admin admin = mock(Admin.class);

	private PartitionLagMonitor monitor;

	@BeforeEach
	void setUp() {
		given(admin.listConsumerGroupOffsets(anyMap())).willAnswer(invocation -> {
			ListConsumerGroupOffsetsResult result = mock(ListConsumerGroupOffsetsResult.class);
			given(result.partitionsToOffsetAndMetadata("g1"))
				.willReturn(KafkaFuture.completedFuture(new HashMap<>(committed)));
			return result;
		});
		given(admin.listOffsets(anyMap())).willAnswer(invocation -> {
			Map<TopicPartition, OffsetSpec> request = invocation.getArgument(0);
			Map<TopicPartition, KafkaFuture<ListOffsetsResultInfo>> futures = new HashMap<>();
			request.forEach((partition, spec) -> {
				long offset = (spec instanceof OffsetSpec.EarliestSpec ? starts : ends).get(partition);
				futures.put(partition,
						KafkaFuture.completedFuture(new ListOffsetsResultInfo(offset, -1, Optional.empty())));
			});
			return new ListOffsetsResult(futures);
		});
		RecordTimestamps timestamps = (from, end, timeout) -> {
			timestampReads.add(from);
			Map<TopicPartition, Long> found = new HashMap<>();
			from.forEach((partition, offset) -> found.put(partition, recordTimestamps.get(partition)));
			return found;
		};
		monitor = new PartitionLagMonitor(admin, List.of("events"), metrics, Duration.ofSeconds(15), timestamps, clock);
		starts.put(P0, 0L);
		starts.put(P1, 0L);
	}

	@Test
	void shouldReportEndMinusCommittedForEachAssignedPartitionOnly() throws Exception {
		ends.put(P0, 1500L);
		ends.put(P1, 40L);
		committed.put(P0, new OffsetAndMetadata(500));
		committed.put(P1, new OffsetAndMetadata(40));
		monitor.onPartitionsAssigned(List.of(P0));

		monitor.refresh();

		assertThat(lagRecords(P0)).isEqualTo(1000);
		assertThat(registry.find("sawmill.lag.records").tag("partition", "1").gauge()).isNull();
		assertThat(monitor.totalLag()).isEqualTo(1000);
	}

	@Test
	void shouldReportThePartitionsOfEveryTopicARoutesPatternMatches() throws Exception {
		TopicPartition eu = new TopicPartition("events-eu", 0);
		TopicPartition other = new TopicPartition("audit", 0);
		ends.put(eu, 70L);
		starts.put(eu, 0L);
		PartitionLagMonitor byPattern = new PartitionLagMonitor(admin, List.of(), Pattern.compile("events-.*"), metrics,
				Duration.ofSeconds(15), null, clock);
		byPattern.onPartitionsAssigned(List.of(eu, other));

		byPattern.refresh();

		assertThat(registry.find("sawmill.lag.records").tag("topic", "events-eu").gauge().value()).isEqualTo(70);
		assertThat(registry.find("sawmill.lag.records").tag("topic", "audit").gauge()).isNull();
	}

	@Test
	void shouldCountFromTheLogStartWhereTheGroupHasCommittedNothing() throws Exception {
		starts.put(P0, 100L);
		ends.put(P0, 130L);
		monitor.onPartitionsAssigned(List.of(P0));

		monitor.refresh();

		assertThat(lagRecords(P0)).isEqualTo(30);
	}

	@Test
	void shouldRemoveTheGaugesOfRevokedPartitionsSoThatPodsDoNotDoubleCount() throws Exception {
		ends.put(P0, 10L);
		ends.put(P1, 10L);
		monitor.onPartitionsAssigned(List.of(P0, P1));
		monitor.refresh();

		monitor.onPartitionsRevoked(List.of(P1));

		assertThat(registry.find("sawmill.lag.records").gauges()).hasSize(1);
		assertThat(registry.find("sawmill.lag.seconds").gauges()).hasSize(1);
		assertThat(monitor.totalLag()).isEqualTo(10);
	}

	@Test
	void shouldReportTheAgeOfTheOldestUncommittedRecordGrowingWithTheClock() throws Exception {
		ends.put(P0, 20L);
		committed.put(P0, new OffsetAndMetadata(5));
		recordTimestamps.put(P0, clock.millis() - 3_000);
		monitor.onPartitionsAssigned(List.of(P0));

		monitor.refresh();
		assertThat(lagSeconds(P0)).isEqualTo(3.0);

		clock.advance(Duration.ofSeconds(10));
		assertThat(lagSeconds(P0)).isEqualTo(13.0);
		assertThat(monitor.maxLagSeconds()).isEqualTo(13.0);
	}

	@Test
	void shouldReportZeroSecondsWhenCaughtUp() throws Exception {
		ends.put(P0, 20L);
		committed.put(P0, new OffsetAndMetadata(5));
		recordTimestamps.put(P0, clock.millis() - 3_000);
		monitor.onPartitionsAssigned(List.of(P0));
		monitor.refresh();

		committed.put(P0, new OffsetAndMetadata(20));
		monitor.refresh();

		assertThat(lagRecords(P0)).isZero();
		assertThat(lagSeconds(P0)).isZero();
	}

	@Test
	void shouldReadTheOldestTimestampAgainOnlyWhenTheCommittedOffsetMoved() throws Exception {
		ends.put(P0, 20L);
		committed.put(P0, new OffsetAndMetadata(5));
		recordTimestamps.put(P0, clock.millis() - 1_000);
		monitor.onPartitionsAssigned(List.of(P0));

		monitor.refresh();
		ends.put(P0, 30L);
		monitor.refresh();
		assertThat(timestampReads).containsExactly(Map.of(P0, 5L));

		committed.put(P0, new OffsetAndMetadata(12));
		recordTimestamps.put(P0, clock.millis() - 400);
		monitor.refresh();

		assertThat(timestampReads).containsExactly(Map.of(P0, 5L), Map.of(P0, 12L));
		assertThat(lagSeconds(P0)).isEqualTo(0.4);
	}

	@Test
	void shouldPublishNoLagInSecondsWithoutATimestampReader() throws Exception {
		PartitionLagMonitor recordsOnly = new PartitionLagMonitor(admin, List.of("events"), metrics,
				Duration.ofSeconds(15));
		ends.put(P0, 3L);
		recordsOnly.onPartitionsAssigned(List.of(P0));

		recordsOnly.refresh();

		assertThat(lagRecords(P0)).isEqualTo(3);
		assertThat(registry.find("sawmill.lag.seconds").gauges()).isEmpty();
	}

	@Test
	void shouldIgnorePartitionsOfOtherTopics() throws Exception {
		monitor.onPartitionsAssigned(List.of(new TopicPartition("other", 0)));

		monitor.refresh();

		assertThat(registry.find("sawmill.lag.records").gauges()).isEmpty();
	}

	private double lagRecords(TopicPartition partition) {
		return registry.get("sawmill.lag.records")
			.tags("topic", partition.topic(), "partition", Integer.toString(partition.partition()), "group", "g1")
			.gauge()
			.value();
	}

	private double lagSeconds(TopicPartition partition) {
		return registry.get("sawmill.lag.seconds")
			.tags("topic", partition.topic(), "partition", Integer.toString(partition.partition()), "group", "g1")
			.gauge()
			.value();
	}

}
