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
package io.sawmill.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * A batch left in flight when nothing more arrives. A full batch is left in flight only
 * while the consumer sees records after its position; a transaction's commit marker is
 * such an offset, but no record is ever polled from it. The batch must still be
 * committed: when the container goes idle, the listener finishes it.
 */
class InFlightBatchIT {

	private static final String TOPIC = "transactional";

	private static final int BATCH = 500;

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, 1);

	@Test
	void shouldCommitAFullBatchLeftInFlightOnceTheContainerIsIdle() throws Exception {
		produceInOneTransaction(BATCH);
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "in-flight");
		properties.put("sawmill.batch-size", BATCH);
		try (ConfigurableApplicationContext app = SawmillApp.run(properties);
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			TopicPartition partition = new TopicPartition(TOPIC, 0);
			// BATCH records and the transaction's commit marker
			assertThat(Kafka.endOffsets(admin, TOPIC, 1)).containsEntry(partition, BATCH + 1L);

			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> Kafka.committedOffsets(admin, "in-flight").getOrDefault(partition, 0L) == BATCH);

			// the one batch was left in flight (the marker looked like more to read),
			// then finished
			assertThat(registry.get("sawmill.batch.in.flight").counter().count()).isEqualTo(1);
			assertThat(registry.get("sawmill.batch.duration").timer().count()).isEqualTo(1);
			RedisVerifier.Result result = RedisVerifier.verify(servers.redis().host(), servers.redis().port(), BATCH,
					SampleEvents::key, SampleEvents::hash, Duration.ofHours(1));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
		}
	}

	private static void produceInOneTransaction(int records) {
		Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers.kafka().bootstrapServers(),
				ProducerConfig.TRANSACTIONAL_ID_CONFIG, "in-flight-it");
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
				new ByteArraySerializer())) {
			producer.initTransactions();
			producer.beginTransaction();
			for (long id = 0; id < records; id++) {
				producer.send(new ProducerRecord<>(TOPIC, SampleEvents.userId(id).getBytes(StandardCharsets.UTF_8),
						SampleEvents.json(id)));
			}
			producer.commitTransaction();
		}
	}

}
