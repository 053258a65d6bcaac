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

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class ConsumerRecordTimestampsTests {

	private static final TopicPartition P0 = new TopicPartition("events", 0);

	private static final TopicPartition P1 = new TopicPartition("events", 1);

	private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");

	private final ConsumerRecordTimestamps timestamps = new ConsumerRecordTimestamps(() -> consumer);

	@Test
	void shouldReturnTheTimestampOfTheFirstRecordAtOrAfterTheCommittedOffset() {
		consumer.schedulePollTask(() -> {
			consumer.addRecord(record(P0, 7, 1_000));
			consumer.addRecord(record(P0, 8, 2_000));
			consumer.addRecord(record(P1, 3, 5_000));
		});

		Map<TopicPartition, Long> found = timestamps.firstTimestamps(Map.of(P0, 7L, P1, 3L), Map.of(P0, 9L, P1, 4L),
				Duration.ofSeconds(5));

		assertThat(found).containsExactlyInAnyOrderEntriesOf(Map.of(P0, 1_000L, P1, 5_000L));
		assertThat(consumer.assignment()).containsExactlyInAnyOrder(P0, P1);
	}

	@Test
	void shouldLeaveOutAPartitionThatReachesItsEndWithoutARecord() {
		consumer.schedulePollTask(() -> consumer.seek(P1, 4));
		consumer.schedulePollTask(() -> consumer.addRecord(record(P0, 7, 1_000)));

		Map<TopicPartition, Long> found = timestamps.firstTimestamps(Map.of(P0, 7L, P1, 3L), Map.of(P0, 8L, P1, 4L),
				Duration.ofSeconds(5));

		assertThat(found).containsExactly(Map.entry(P0, 1_000L));
	}

	private static ConsumerRecord<byte[], byte[]> record(TopicPartition partition, long offset, long timestamp) {
		return new ConsumerRecord<>(partition.topic(), partition.partition(), offset, timestamp,
				TimestampType.CREATE_TIME, 0, 0, new byte[0], new byte[0], new RecordHeaders(), Optional.empty());
	}

	@Test
	void shouldReadNothingForNoPartitions() {
		assertThat(timestamps.firstTimestamps(Map.of(), Map.of(), Duration.ofSeconds(1))).isEmpty();
		assertThat(List.copyOf(consumer.assignment())).isEmpty();
	}

}
