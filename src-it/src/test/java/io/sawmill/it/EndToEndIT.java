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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.it.support.FlushCounter;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * The whole path with the app's own configuration: 120,000 JSON records over 6 partitions
 * on a real broker, consumed by 3 listener threads, written to a real redis-server.
 */
class EndToEndIT {

	private static final String TOPIC = "users";

	private static final int PARTITIONS = 6;

	private static final long RECORDS = 120_000;

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, PARTITIONS);

	@Test
	void shouldWriteEveryRecordsHashAndTtlAndCommitEveryOffsetWithOneFlushPerBatch() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "e2e");
		properties.put("sawmill.concurrency", 3);
		properties.put("sawmill.batch-size", 1000);
		try (ConfigurableApplicationContext app = SawmillApp.run(properties, FlushCounter.class);
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			FlushCounter counter = app.getBean(FlushCounter.class);
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			long flushesBefore = counter.flushes();

			Kafka.produce(servers.kafka().bootstrapServers(), TOPIC, 0, RECORDS, SampleEvents::userId,
					SampleEvents::json);
			Map<org.apache.kafka.common.TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
			assertThat(Kafka.sum(end)).isEqualTo(RECORDS);

			await().atMost(Duration.ofMinutes(3))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> Kafka.committedOffsets(admin, "e2e").equals(end));

			RedisVerifier.Result result = RedisVerifier.verify(servers.redis().host(), servers.redis().port(), RECORDS,
					SampleEvents::key, SampleEvents::hash, Duration.ofHours(1));
			assertThat(result.allVerified()).as(result.toString()).isTrue();

			long batches = registry.get("sawmill.batch.duration").timer().count();
			assertThat(batches).isGreaterThanOrEqualTo(RECORDS / 1000);
			assertThat(registry.get("sawmill.records").tag("outcome", "written").counter().count())
				.isEqualTo((double) RECORDS);
			// a backlog: full batches were left in flight while the next was mapped and
			// sent
			assertThat(registry.get("sawmill.batch.in.flight").counter().count()).isPositive();
			// every batch of ≤ 1,000 records is ≤ 2,000 commands, within the default
			// chunk: one flush each
			assertThat(counter.flushes() - flushesBefore).isEqualTo(batches);
		}
	}

}
