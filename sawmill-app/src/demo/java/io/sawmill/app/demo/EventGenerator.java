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
package io.sawmill.app.demo;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.sawmill.testkit.SampleEvents;

/**
 * Produces {@code count} JSON events (ids 0…count-1) at about {@code rate} per second (0:
 * flat out).
 */
final class EventGenerator implements Runnable {

	private final String bootstrapServers;

	private final String topic;

	private final long count;

	private final long rate;

	private final AtomicLong produced = new AtomicLong();

	EventGenerator(String bootstrapServers, String topic, long count, long rate) {
		this.bootstrapServers = bootstrapServers;
		this.topic = topic;
		this.count = count;
		this.rate = rate;
	}

	long produced() {
		return produced.get();
	}

	@Override
	public void run() {
		Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
				ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4", ProducerConfig.ACKS_CONFIG, "all");
		long started = System.nanoTime();
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
				new ByteArraySerializer())) {
			for (long id = 0; id < count; id++) {
				if (rate > 0) {
					long due = started + id * 1_000_000_000L / rate;
					long wait = due - System.nanoTime();
					if (wait > 0) {
						LockSupport.parkNanos(wait);
					}
				}
				byte[] key = SampleEvents.userId(id).getBytes(java.nio.charset.StandardCharsets.UTF_8);
				producer.send(new ProducerRecord<>(topic, key, SampleEvents.json(id)), (metadata, error) -> {
					if (error == null) {
						produced.incrementAndGet();
					}
					else {
						System.err.println("produce failed: " + error);
					}
				});
			}
			producer.flush();
		}
	}

}
