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

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

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

/**
 * Scenario 1: redis-server is SIGKILLed while records stream in and restarted 5 s later.
 * Redis runs with an fsync-always append-only file, so what it acknowledged survives the
 * kill, as on a persistent production Redis; Sawmill must lose nothing and dead-letter
 * nothing.
 */
class RedisKilledMidStreamIT {

	private static final String TOPIC = "redis-kill";

	private static final VersionedEvents WORKLOAD = new VersionedEvents(30_000, 10_000);

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, 3)
		.redisArgs("--appendonly", "yes", "--appendfsync", "always");

	@Test
	void shouldLoseNothingWhenRedisIsKilledAndRestarted() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "redis-kill");
		properties.put("sawmill.batch-size", 500);
		properties.put("sawmill.pipeline.timeout", "2s");
		properties.put("sawmill.circuit-breaker.open-wait", "1s");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties);
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			CompletableFuture<Void> producing = WORKLOAD.produceAllInBackground(servers.kafka().bootstrapServers(),
					TOPIC);
			await().atMost(Duration.ofMinutes(1)).until(() -> written(registry) >= 5_000);
			servers.redis().kill();
			// the outage the scenario asks for, not a wait for a result
			Thread.sleep(5_000);
			servers.redis().start();
			producing.get();

			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, 3);
			assertThat(Kafka.sum(end)).isEqualTo(WORKLOAD.records());
			await().atMost(Duration.ofMinutes(2)).until(() -> Kafka.committedOffsets(admin, "redis-kill").equals(end));

			RedisVerifier.Result result = WORKLOAD.verify(servers.redis().host(), servers.redis().port(),
					Duration.ofHours(1));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
			assertThat(registry.find("sawmill.records").tag("outcome", "dead_lettered").counter()).isNull();
			double retried = registry.find("sawmill.records")
				.tag("outcome", "retried")
				.counters()
				.stream()
				.mapToDouble(c -> c.count())
				.sum();
			System.out.printf("redis-kill: produced %d, keys verified %d, written %.0f, re-polled %.0f%n",
					WORKLOAD.records(), result.verified(), written(registry), retried);
			assertThat(written(registry)).isGreaterThanOrEqualTo(WORKLOAD.records());
			// the kill hit a backlog of full batches, one of them in flight on each
			// listener thread
			assertThat(registry.get("sawmill.batch.in.flight").counter().count()).isPositive();
		}
	}

	private static double written(MeterRegistry registry) {
		return registry.find("sawmill.records")
			.tag("outcome", "written")
			.counters()
			.stream()
			.mapToDouble(c -> c.count())
			.sum();
	}

}
