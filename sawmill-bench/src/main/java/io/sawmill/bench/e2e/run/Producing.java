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
package io.sawmill.bench.e2e.run;

import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.sawmill.bench.e2e.workload.Workload;

/**
 * Produces the workload's records 0…n-1 to a topic, flat out or at a fixed rate, keyed by
 * id.
 */
public final class Producing {

	private Producing() {
	}

	/**
	 * @param perSecond records per second, 0 for flat out
	 * @param progress called with the number sent so far, now and then
	 */
	public static void produce(String bootstrapServers, String topic, Workload workload, long records, int perSecond,
			LongConsumer progress) {
		produce(bootstrapServers, topic, workload, 0, records, perSecond, progress);
	}

	/**
	 * Records {@code from…to-1}; {@code progress} is called with the number of them sent
	 * so far.
	 */
	static void produce(String bootstrapServers, String topic, Workload workload, long from, long to, int perSecond,
			LongConsumer progress) {
		// Not idempotent, one request in flight: on a loaded machine a produce request
		// can time out right after topic creation, and the idempotent producer then got
		// stuck retrying on OUT_OF_ORDER_SEQUENCE_NUMBER. One request in flight keeps
		// each key's records in order even when a retry duplicates one (a duplicate
		// rewrites the same hash).
		Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				ProducerConfig.LINGER_MS_CONFIG, perSecond > 0 ? 1 : 5, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
				ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4", ProducerConfig.ACKS_CONFIG, "1",
				ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false, ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
				1, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
				60_000);
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
				new ByteArraySerializer())) {
			long started = System.nanoTime();
			for (long seq = from; seq < to; seq++) {
				if (perSecond > 0) {
					long due = started + (seq - from) * 1_000_000_000L / perSecond;
					long wait = due - System.nanoTime();
					if (wait > 200_000) {
						LockSupport.parkNanos(wait);
					}
				}
				producer.send(new ProducerRecord<>(topic, workload.kafkaKey(seq), workload.json(seq)));
				if (seq % 10_000 == 0) {
					progress.accept(seq - from);
				}
			}
			producer.flush();
			progress.accept(to - from);
		}
	}

}
