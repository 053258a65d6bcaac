package io.sawmill.it.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import io.sawmill.it.support.Kafka;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * A workload where keys are written several times: record {@code i} is event {@code i % keys} at
 * version {@code i / keys}, keyed by its user id so every version of a key is on one partition in
 * order. After a fault, every key must hold its <em>last</em> version.
 */
record KeyedWorkload(long records, long keys) {

	void produce(String bootstrapServers, String topic, long from, long to) {
		Kafka.produce(bootstrapServers, topic, from, to, i -> SampleEvents.userId(i % keys),
				i -> SampleEvents.json(i % keys, (int) (i / keys)));
	}

	int lastVersion(long id) {
		return (int) ((records - 1 - id) / keys);
	}

	RedisVerifier.Result verify(String host, int port) {
		return RedisVerifier.verify(host, port, Math.min(keys, records), SampleEvents::key,
				id -> SampleEvents.hash(id, lastVersion(id)), Duration.ofHours(1));
	}

	/** Every record of the topic, read from the beginning with a throwaway consumer. */
	static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrapServers, String topic, long expected) {
		List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
				ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ConsumerConfig.GROUP_ID_CONFIG,
				"reader-" + System.nanoTime(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
				new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
			consumer.subscribe(List.of(topic));
			long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			while (all.size() < expected && System.nanoTime() < deadline) {
				consumer.poll(Duration.ofMillis(200)).forEach(all::add);
			}
			// anything beyond the expected count would be a duplicate: give it a moment to show up
			consumer.poll(Duration.ofSeconds(1)).forEach(all::add);
		}
		return all;
	}
}
