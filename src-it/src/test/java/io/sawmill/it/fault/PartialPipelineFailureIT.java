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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * Scenario 7, partial pipeline failure: in the same pipelines some commands fail
 * transiently (an ACL denies the writer keys of users u5…u9*: NOPERM, a configuration
 * problem, never the record's fault) and some permanently (WRONGTYPE). The others are
 * written at once; the permanent ones are dead-lettered; the transient ones are retried —
 * and only they — until the ACL is fixed, and nothing past them is committed before.
 */
class PartialPipelineFailureIT {

	private static final String TOPIC = "partial";

	private static final VersionedEvents WORKLOAD = new VersionedEvents(1_000, 1_000);

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, 1)
		.redisArgs("--user", "writer", "on", ">writer-secret", "~user:u[0-4]*", "+@all");

	@Test
	// the try keeps Sawmill running for its body, which never calls it
	@SuppressWarnings("try")
	void shouldWriteWhatSucceededDeadLetterWhatCannotAndRetryOnlyTheTransientFailures() throws Exception {
		// u1, u10…u19, u100…u199 are allowed by the ACL, but already hold strings:
		// WRONGTYPE, permanent
		for (long id : List.of(1L, 10L, 100L)) {
			assertThat(servers.redis().command("SET", SampleEvents.key(id), "not a hash")).isEqualTo("+OK");
		}
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "partial");
		properties.put("spring.data.redis.username", "writer");
		properties.put("spring.data.redis.password", "writer-secret");
		properties.put("sawmill.retry.max-attempts", 2);
		properties.put("sawmill.retry.initial-backoff", "50ms");
		properties.put("sawmill.retry.max-backoff", "100ms");
		properties.put("sawmill.circuit-breaker.enabled", false);
		try (ConfigurableApplicationContext app = SawmillApp.run(properties);
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			WORKLOAD.produce(servers.kafka().bootstrapServers(), TOPIC, 0, 1_000);
			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, 1);

			// allowed keys are written while denied ones keep failing and hold the batch
			// uncommitted
			await().atMost(Duration.ofMinutes(1))
				.until(() -> ":1".equals(servers.redis().command("EXISTS", SampleEvents.key(42))));
			assertThat(servers.redis().command("EXISTS", SampleEvents.key(7))).isEqualTo(":0");
			assertThat(Kafka.committedOffsets(admin, "partial").getOrDefault(new TopicPartition(TOPIC, 0), 0L))
				.isLessThan(end.get(new TopicPartition(TOPIC, 0)));

			assertThat(servers.redis().command("ACL", "SETUSER", "writer", "allkeys")).isEqualTo("+OK");
			await().atMost(Duration.ofMinutes(1)).until(() -> Kafka.committedOffsets(admin, "partial").equals(end));

			List<Long> poisoned = List.of(1L, 10L, 100L);
			RedisVerifier.Result result = RedisVerifier.verify(servers.redis().host(), servers.redis().port(), 1_000,
					SampleEvents::key, SampleEvents::hash, Duration.ofHours(1));
			assertThat(result.verified()).as(result.toString()).isEqualTo(1_000 - poisoned.size());
			assertThat(result.wrongHash()).isEqualTo(poisoned.size());
			List<ConsumerRecord<byte[], byte[]>> dead = Kafka.readAll(servers.kafka().bootstrapServers(),
					TOPIC + ".DLT", 3);
			assertThat(dead).extracting(r -> new String(r.key(), StandardCharsets.UTF_8))
				.containsExactlyInAnyOrder("u1", "u10", "u100");
		}
	}

}
