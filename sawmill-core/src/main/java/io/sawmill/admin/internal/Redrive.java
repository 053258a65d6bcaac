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
package io.sawmill.admin.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.support.KafkaHeaders;

import io.sawmill.deadletter.internal.KafkaDeadLetterPublisher;

/**
 * Re-drives a range of a dead-letter topic: each dead letter's key, value and original
 * headers are produced again to the topic and partition it came from (the DLT headers
 * name them), with {@link #REDRIVEN_FROM_HEADER}, so the normal consumer path takes them
 * with all its guarantees (ordering behind what is already in that partition, commit
 * after Redis, dead letter again if still failing). Dead letters published without their
 * value cannot be re-driven from the DLT and are reported as skipped.
 */
final class Redrive {

	/**
	 * Added to each record produced again; its value names the dead letter,
	 * {@code topic-partition@offset}.
	 */
	static final String REDRIVEN_FROM_HEADER = "sawmill-redriven-from";

	private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

	private final List<String> topics;

	private final Map<String, Object> consumerProperties;

	private final Map<String, Object> producerProperties;

	private final Duration sendTimeout;

	/**
	 * @param topics the service's topics: a dead letter from any other is skipped
	 * @param consumerProperties the Kafka client properties to read dead letters with
	 * (security, bootstrap servers)
	 * @param producerProperties the Kafka client properties to re-drive them with
	 * @param sendTimeout how long to wait for each re-driven record's acknowledgement
	 */
	Redrive(List<String> topics, Map<String, Object> consumerProperties, Map<String, Object> producerProperties,
			Duration sendTimeout) {
		this.topics = List.copyOf(topics);
		this.consumerProperties = Map.copyOf(consumerProperties);
		this.producerProperties = Map.copyOf(producerProperties);
		this.sendTimeout = sendTimeout;
	}

	Map<String, Object> run(String topic, int partition, long from, long to) throws Exception {
		TopicPartition source = new TopicPartition(topic, partition);
		List<ConsumerRecord<byte[], byte[]>> deadLetters = read(source, from, to);
		List<Map<String, Object>> skipped = new ArrayList<>();
		List<Future<RecordMetadata>> sent = new ArrayList<>();
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProperties(),
				new ByteArraySerializer(), new ByteArraySerializer())) {
			for (ConsumerRecord<byte[], byte[]> deadLetter : deadLetters) {
				String why = unredrivable(deadLetter);
				if (why != null) {
					Map<String, Object> skip = new LinkedHashMap<>();
					skip.put("offset", deadLetter.offset());
					skip.put("reason", why);
					skipped.add(skip);
					continue;
				}
				sent.add(producer.send(toOriginal(deadLetter, topic + "-" + partition + "@" + deadLetter.offset())));
			}
			producer.flush();
			for (Future<RecordMetadata> send : sent) {
				send.get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
			}
		}
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("topic", topic);
		result.put("partition", partition);
		result.put("from", from);
		result.put("to", to);
		result.put("read", deadLetters.size());
		result.put("redriven", sent.size());
		result.put("skipped", skipped);
		return result;
	}

	/** Why a record cannot be re-driven, or null. */
	private @Nullable String unredrivable(ConsumerRecord<byte[], byte[]> deadLetter) {
		String original = text(deadLetter, KafkaHeaders.DLT_ORIGINAL_TOPIC);
		if (original == null || deadLetter.headers().lastHeader(KafkaHeaders.DLT_ORIGINAL_PARTITION) == null) {
			return "not a dead letter: no " + KafkaHeaders.DLT_ORIGINAL_TOPIC + " header";
		}
		if (!topics.contains(original)) {
			return "its original topic " + original + " is not one of this service's topics " + topics;
		}
		String dropped = text(deadLetter, KafkaDeadLetterPublisher.VALUE_DROPPED_HEADER);
		if (dropped != null) {
			return "dead-lettered without its value (" + dropped + "); its value is still at " + original + "-"
					+ originalPartition(deadLetter) + "@" + originalOffset(deadLetter) + " in the source topic";
		}
		return null;
	}

	private static ProducerRecord<byte[], byte[]> toOriginal(ConsumerRecord<byte[], byte[]> deadLetter, String from) {
		RecordHeaders headers = new RecordHeaders();
		for (Header header : deadLetter.headers()) {
			String key = header.key();
			if (!key.startsWith(KafkaHeaders.PREFIX + "dlt-") && !key.startsWith("sawmill-")) {
				headers.add(header);
			}
		}
		headers.add(REDRIVEN_FROM_HEADER, from.getBytes(StandardCharsets.UTF_8));
		return new ProducerRecord<>(text(deadLetter, KafkaHeaders.DLT_ORIGINAL_TOPIC), originalPartition(deadLetter),
				deadLetter.key(), deadLetter.value(), headers);
	}

	/**
	 * The records at offsets [from, to) of the partition, or up to its end if that comes
	 * first.
	 */
	private List<ConsumerRecord<byte[], byte[]>> read(TopicPartition partition, long from, long to) {
		Map<String, Object> properties = new HashMap<>(consumerProperties);
		properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
		properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000);
		properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "sawmill-redrive");
		List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
				new ByteArrayDeserializer())) {
			List<TopicPartition> assigned = List.of(partition);
			consumer.assign(assigned);
			long end = Math.min(to, Objects.requireNonNull(consumer.endOffsets(assigned, READ_TIMEOUT).get(partition),
					"the partition asked for"));
			long start = Math.max(from, Objects.requireNonNull(
					consumer.beginningOffsets(assigned, READ_TIMEOUT).get(partition), "the partition asked for"));
			consumer.seek(partition, start);
			long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
			while (consumer.position(partition, READ_TIMEOUT) < end) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("could not read " + partition + " from " + start + " to " + end
							+ " within " + READ_TIMEOUT + "; nothing was re-driven");
				}
				for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
					if (record.offset() < end) {
						records.add(record);
					}
				}
			}
		}
		return records;
	}

	private Map<String, Object> producerProperties() {
		Map<String, Object> properties = new HashMap<>(producerProperties);
		properties.put(ProducerConfig.ACKS_CONFIG, "all");
		properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
		properties.put(ProducerConfig.CLIENT_ID_CONFIG, "sawmill-redrive");
		properties.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
		return properties;
	}

	private static int originalPartition(ConsumerRecord<byte[], byte[]> record) {
		return ByteBuffer.wrap(record.headers().lastHeader(KafkaHeaders.DLT_ORIGINAL_PARTITION).value()).getInt();
	}

	private static Object originalOffset(ConsumerRecord<byte[], byte[]> record) {
		Header offset = record.headers().lastHeader(KafkaHeaders.DLT_ORIGINAL_OFFSET);
		return offset == null ? "?" : ByteBuffer.wrap(offset.value()).getLong();
	}

	private static @Nullable String text(ConsumerRecord<byte[], byte[]> record, String header) {
		Header found = record.headers().lastHeader(header);
		return found == null ? null : new String(found.value(), StandardCharsets.UTF_8);
	}

}
