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

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
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
 * While Redis is down, batches fail and nothing is committed; once it is back, the same
 * records are polled again, written and committed.
 */
class RedisOutageIT {

	private static final String TOPIC = "outage";

	private static final int PARTITIONS = 3;

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, PARTITIONS);

	@Test
	void shouldLeaveAFailedBatchUncommittedAndWriteItAfterRedisReturns() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "outage");
		properties.put("sawmill.pipeline.timeout", "2s");
		properties.put("sawmill.retry.max-attempts", 2);
		properties.put("sawmill.retry.initial-backoff", "100ms");
		properties.put("sawmill.retry.max-backoff", "200ms");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties);
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			Kafka.produce(servers.kafka().bootstrapServers(), TOPIC, 0, 1_000, SampleEvents::userId,
					SampleEvents::json);
			Map<TopicPartition, Long> beforeOutage = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
			await().atMost(Duration.ofMinutes(1))
				.until(() -> Kafka.committedOffsets(admin, "outage").equals(beforeOutage));

			servers.redis().kill();
			Kafka.produce(servers.kafka().bootstrapServers(), TOPIC, 1_000, 3_000, SampleEvents::userId,
					SampleEvents::json);
			await().atMost(Duration.ofMinutes(1))
				.until(() -> registry.find("sawmill.records").tag("outcome", "retried").counter() != null
						&& registry.get("sawmill.records").tag("outcome", "retried").counter().count() >= 2_000);
			assertThat(Kafka.committedOffsets(admin, "outage")).as("nothing committed while Redis is down")
				.isEqualTo(beforeOutage);

			servers.redis().start();
			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
			await().atMost(Duration.ofMinutes(1)).until(() -> Kafka.committedOffsets(admin, "outage").equals(end));

			// the restarted redis-server keeps nothing from before the kill: check the
			// records produced during it
			RedisVerifier.Result result = RedisVerifier.verify(servers.redis().host(), servers.redis().port(), 2_000,
					id -> SampleEvents.key(id + 1_000), id -> SampleEvents.hash(id + 1_000), Duration.ofHours(1));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
		}
	}

}
