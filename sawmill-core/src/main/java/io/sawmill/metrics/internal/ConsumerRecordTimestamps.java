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

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;

/**
 * {@link RecordTimestamps} through a consumer of its own: assigned (no group, never
 * commits) to the lagging partitions, seeked to the committed offsets, polled until each
 * returned its first record. It fetches at most one record batch per partition
 * ({@code max.partition.fetch.bytes} is tiny; the broker always returns at least one
 * batch), and only when a partition's committed offset has moved since the last read, so
 * the cost is small.
 */
public final class ConsumerRecordTimestamps implements RecordTimestamps {

	private final Supplier<Consumer<byte[], byte[]>> consumers;

	private @Nullable Consumer<byte[], byte[]> consumer;

	/**
	 * Reads with {@code consumer}, created on first use (tests pass a
	 * {@code MockConsumer}).
	 */
	public ConsumerRecordTimestamps(Supplier<Consumer<byte[], byte[]>> consumer) {
		this.consumers = consumer;
	}

	/**
	 * A consumer from the application's consumer properties (bootstrap servers, security,
	 * isolation level), without its group: it only reads.
	 */
	public static ConsumerRecordTimestamps of(Map<String, Object> consumerProperties) {
		Map<String, Object> properties = new HashMap<>(consumerProperties);
		properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
		properties.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
		properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 1);
		properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
		properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "sawmill-lag-timestamps");
		return new ConsumerRecordTimestamps(
				() -> new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer()));
	}

	@Override
	public Map<TopicPartition, Long> firstTimestamps(Map<TopicPartition, Long> from, Map<TopicPartition, Long> end,
			Duration timeout) {
		Map<TopicPartition, Long> timestamps = new HashMap<>();
		if (from.isEmpty()) {
			return timestamps;
		}
		Consumer<byte[], byte[]> reader = open();
		reader.assign(from.keySet());
		reader.resume(reader.paused());
		from.forEach(reader::seek);
		Set<TopicPartition> pending = new HashSet<>(from.keySet());
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!pending.isEmpty() && System.nanoTime() < deadline) {
			long remaining = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
			ConsumerRecords<byte[], byte[]> records = reader.poll(Duration.ofMillis(Math.min(remaining, 500)));
			for (TopicPartition partition : records.partitions()) {
				for (ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
					if (pending.contains(partition) && record.offset() >= Objects.requireNonNull(from.get(partition),
							"every pending partition is in from")) {
						timestamps.put(partition, record.timestamp());
						pending.remove(partition);
						reader.pause(List.of(partition));
					}
				}
			}
			pending.removeIf(partition -> end.containsKey(partition) && reader.position(partition) >= end.get(partition)
					&& !timestamps.containsKey(partition));
		}
		return timestamps;
	}

	/** The reader, created on first use. */
	private Consumer<byte[], byte[]> open() {
		Consumer<byte[], byte[]> open = consumer;
		if (open == null) {
			open = consumers.get();
			consumer = open;
		}
		return open;
	}

	@Override
	public void close() {
		if (consumer != null) {
			consumer.close();
			consumer = null;
		}
	}

}
