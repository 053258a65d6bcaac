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
package io.sawmill.it.versionguard;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Records of entities {@code e<id>} at revisions {@code rev}: the JSON value
 * {@code {"rev":r,"name":"e<id>-r<r>"}}, keyed by the entity, sent to the partition the
 * test chooses (so one entity's revisions can be spread over several partitions and
 * produced out of order).
 */
final class VersionedProducer {

	/**
	 * The mapping the tests run with: the entity's key (per topic), its revision as the
	 * version.
	 */
	static final String KEY_TEMPLATE = "{@topic}:entity:{@key}";

	static final String VERSION = "field:rev";

	private VersionedProducer() {
	}

	static String entity(long id) {
		return "e" + id;
	}

	static String redisKey(String topic, long id) {
		return topic + ":entity:" + entity(id);
	}

	static String name(long id, long rev) {
		return entity(id) + "-r" + rev;
	}

	static ProducerRecord<byte[], byte[]> revision(String topic, int partition, long id, long rev) {
		String json = "{\"rev\":" + rev + ",\"name\":\"" + name(id, rev) + "\"}";
		return new ProducerRecord<>(topic, partition, utf8(entity(id)), utf8(json));
	}

	/** A tombstone of the entity, its version in the header {@code rev}. */
	static ProducerRecord<byte[], byte[]> tombstone(String topic, int partition, long id, long rev) {
		ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition, utf8(entity(id)), null);
		record.headers().add("rev", utf8(Long.toString(rev)));
		return record;
	}

	/**
	 * Every entity's revisions {@code 0…revisions-1}, each on the same partition (the
	 * entity's), in order.
	 */
	static List<ProducerRecord<byte[], byte[]>> inOrder(String topic, int partitions, int entities, int revisions) {
		List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
		for (int rev = 0; rev < revisions; rev++) {
			records.addAll(round(topic, partitions, entities, rev));
		}
		return records;
	}

	/** Revision {@code rev} of every entity, each on its own partition. */
	static List<ProducerRecord<byte[], byte[]>> round(String topic, int partitions, int entities, int rev) {
		List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(entities);
		for (int id = 0; id < entities; id++) {
			records.add(revision(topic, id % partitions, id, rev));
		}
		return records;
	}

	/**
	 * Every entity's revisions spread over the partitions (revision r of entity id on
	 * partition {@code (r + id) % partitions}) and produced newest first.
	 */
	static List<ProducerRecord<byte[], byte[]>> spreadNewestFirst(String topic, int partitions, int entities,
			int revisions) {
		List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
		for (int rev = revisions - 1; rev >= 0; rev--) {
			for (int id = 0; id < entities; id++) {
				records.add(revision(topic, (rev + id) % partitions, id, rev));
			}
		}
		return records;
	}

	static void send(String bootstrapServers, List<ProducerRecord<byte[], byte[]>> records) {
		Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.ACKS_CONFIG, "all");
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
				new ByteArraySerializer())) {
			records.forEach(producer::send);
			producer.flush();
		}
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
