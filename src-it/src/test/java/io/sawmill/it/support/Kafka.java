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
package io.sawmill.it.support;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Producing records and reading offsets back, for assertions. */
public final class Kafka {

	private Kafka() {
	}

	/**
	 * Produces ids {@code from…to-1}, keyed by {@code key}, and waits for every
	 * acknowledgement.
	 */
	public static void produce(String bootstrapServers, String topic, long from, long to, LongFunction<String> key,
			LongFunction<byte[]> value) {
		Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
				ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4", ProducerConfig.ACKS_CONFIG, "all");
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
				new ByteArraySerializer())) {
			for (long id = from; id < to; id++) {
				producer
					.send(new ProducerRecord<>(topic, key.apply(id).getBytes(StandardCharsets.UTF_8), value.apply(id)));
			}
			producer.flush();
		}
	}

	/** Produces one record with raw bytes and waits for the acknowledgement. */
	public static void produceOne(String bootstrapServers, String topic, byte[] key, byte[] value) {
		produceOne(bootstrapServers, topic, key, value, null, null);
	}

	/** The same with one header (none when {@code header} is null). */
	public static void produceOne(String bootstrapServers, String topic, byte[] key, byte[] value, String header,
			byte[] headerValue) {
		Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024);
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
				new ByteArraySerializer())) {
			ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, key, value);
			if (header != null) {
				record.headers().add(header, headerValue);
			}
			producer.send(record).get();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Log-end offset of every partition of the topic. */
	public static Map<TopicPartition, Long> endOffsets(Admin admin, String topic, int partitions) throws Exception {
		Map<TopicPartition, OffsetSpec> request = java.util.stream.IntStream.range(0, partitions)
			.boxed()
			.collect(Collectors.toMap(p -> new TopicPartition(topic, p), p -> OffsetSpec.latest()));
		return admin.listOffsets(request)
			.all()
			.get(30, TimeUnit.SECONDS)
			.entrySet()
			.stream()
			.collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
	}

	/** The group's committed offset of every partition it has committed. */
	public static Map<TopicPartition, Long> committedOffsets(Admin admin, String group) throws Exception {
		Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
			.partitionsToOffsetAndMetadata()
			.get(30, TimeUnit.SECONDS);
		return committed.entrySet()
			.stream()
			.filter(e -> e.getValue() != null)
			.collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
	}

	public static Admin admin(String bootstrapServers) {
		return Admin.create(Map.of("bootstrap.servers", bootstrapServers));
	}

	public static long sum(Map<TopicPartition, Long> offsets) {
		return offsets.values().stream().mapToLong(Long::longValue).sum();
	}

	public static List<String> args(Map<String, Object> properties) {
		return properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toList();
	}

	/** Every record of the topic, read from the beginning with a throwaway consumer. */
	public static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrapServers, String topic, long expected) {
		List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ConsumerConfig.GROUP_ID_CONFIG,
						"reader-" + System.nanoTime(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
				new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
			consumer.subscribe(List.of(topic));
			long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			while (all.size() < expected && System.nanoTime() < deadline) {
				consumer.poll(Duration.ofMillis(200)).forEach(all::add);
			}
			// anything beyond the expected count would be a duplicate: give it a moment
			// to show up
			consumer.poll(Duration.ofSeconds(1)).forEach(all::add);
		}
		return all;
	}

}
