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
package io.sawmill.it.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupType;
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
 * Kafka 4's consumer group protocol (KIP-848, {@code group.protocol=consumer}) against a
 * real KRaft broker: two instances of the service, the second joining while the first is
 * busy, so partitions are handed over by the broker's incremental assignment while
 * batches are in flight.
 */
class ConsumerGroupProtocolIT {

	private static final String TOPIC = "kip848";

	private static final String GROUP = "kip848-group";

	private static final int PARTITIONS = 6;

	private static final long RECORDS = 60_000;

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, PARTITIONS);

	@Test
	// the try keeps Sawmill running for its body, which never calls it
	@SuppressWarnings("try")
	void shouldWriteEveryRecordAndCommitEveryOffsetWithTheConsumerGroupProtocol() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, GROUP);
		properties.put("sawmill.concurrency", 2);
		properties.put("spring.kafka.consumer.properties.group.protocol", "consumer");
		String bootstrap = servers.kafka().bootstrapServers();
		try (Admin admin = Kafka.admin(bootstrap); ConfigurableApplicationContext first = SawmillApp.run(properties)) {
			Kafka.produce(bootstrap, TOPIC, 0, RECORDS / 2, SampleEvents::userId, SampleEvents::json);
			try (ConfigurableApplicationContext second = SawmillApp.run(properties)) {
				Kafka.produce(bootstrap, TOPIC, RECORDS / 2, RECORDS, SampleEvents::userId, SampleEvents::json);
				Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
				assertThat(Kafka.sum(end)).isEqualTo(RECORDS);

				await().atMost(Duration.ofMinutes(3))
					.pollInterval(Duration.ofMillis(500))
					.until(() -> Kafka.committedOffsets(admin, GROUP).equals(end));

				ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(GROUP))
					.describedGroups()
					.get(GROUP)
					.get(30, TimeUnit.SECONDS);
				assertThat(group.type()).isEqualTo(GroupType.CONSUMER);
				await().atMost(Duration.ofMinutes(1))
					.untilAsserted(() -> assertThat(admin.describeConsumerGroups(List.of(GROUP))
						.describedGroups()
						.get(GROUP)
						.get(30, TimeUnit.SECONDS)
						.members()).hasSize(4));
			}
			RedisVerifier.Result result = RedisVerifier.verify(servers.redis().host(), servers.redis().port(), RECORDS,
					SampleEvents::key, SampleEvents::hash, Duration.ofHours(1));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
		}
	}

}
