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
package io.sawmill.it.fault;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.apache.kafka.clients.producer.ProducerRecord;

import io.sawmill.it.support.Kafka;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * The known record set of a fault scenario: {@code records} records over {@code keys}
 * keys, record {@code i} being event {@code i % keys} at version {@code i / keys}. Each
 * record is keyed by {@link SampleEvents#userId(long)}, so every version of a key lands
 * on one partition in order and the last one produced is the one Redis must end up
 * holding.
 */
record VersionedEvents(long records, int keys) {

	VersionedEvents {
		if (keys < 1 || records < keys) {
			throw new IllegalArgumentException("records must be at least keys (" + keys + "), but was " + records);
		}
	}

	long id(long record) {
		return record % keys;
	}

	int version(long record) {
		return (int) (record / keys);
	}

	/** The version of the last record produced for {@code id}. */
	int lastVersion(long id) {
		return (int) ((records - 1 - id) / keys);
	}

	/** The hash Redis must hold for {@code id} once every record is written. */
	Map<String, String> finalHash(long id) {
		return SampleEvents.hash(id, lastVersion(id));
	}

	/** Produces records {@code from…to-1} and waits until Kafka acknowledged each. */
	void produce(String bootstrapServers, String topic, long from, long to) {
		Kafka.produce(bootstrapServers, topic, from, to, i -> SampleEvents.userId(id(i)),
				i -> SampleEvents.json(id(i), version(i)));
	}

	/**
	 * Produces every record in chunks of 1,000 on another thread, while the test injects
	 * its fault.
	 */
	java.util.concurrent.CompletableFuture<Void> produceAllInBackground(String bootstrapServers, String topic) {
		return java.util.concurrent.CompletableFuture.runAsync(() -> {
			for (long from = 0; from < records; from += 1_000) {
				produce(bootstrapServers, topic, from, Math.min(records, from + 1_000));
			}
		});
	}

	/**
	 * Reads Redis back on loopback: every key holds its last version, with a TTL in (0,
	 * {@code ttl}].
	 */
	RedisVerifier.Result verify(String host, int port, java.time.Duration ttl) {
		return RedisVerifier.verify(host, port, keys, SampleEvents::key, this::finalHash, ttl);
	}

	ProducerRecord<byte[], byte[]> record(String topic, long record) {
		long id = id(record);
		return new ProducerRecord<>(topic, SampleEvents.userId(id).getBytes(StandardCharsets.UTF_8),
				SampleEvents.json(id, version(record)));
	}
}
