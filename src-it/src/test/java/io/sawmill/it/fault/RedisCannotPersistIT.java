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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisVerifier;

/**
 * Redis cannot persist (a full disk) mid-drain, until Sawmill has handed three batches
 * back to be polled again: with {@code stop-writes-on-bgsave-error} it refuses every
 * write with {@code MISCONF}. That is an outage, not the records' fault: nothing is
 * dead-lettered, and once the disk is "fixed" every record is written and committed.
 */
class RedisCannotPersistIT {

	private static final String TOPIC = "misconf";

	private static final int PARTITIONS = 3;

	private static final VersionedEvents WORKLOAD = new VersionedEvents(30_000, 10_000);

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, PARTITIONS)
		.redisArgs("--save", "3600 1", "--stop-writes-on-bgsave-error", "yes", "--enable-protected-configs", "yes");

	@Test
	void shouldDeadLetterNothingAndLoseNothingWhileRedisCannotPersist() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "misconf");
		properties.put("sawmill.batch-size", 500);
		properties.put("sawmill.circuit-breaker.open-wait", "1s");
		try (Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			FaultAssertions.createTopics(admin, TOPIC, PARTITIONS);
		}
		try (ConfigurableApplicationContext app = SawmillApp.run(properties);
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			CompletableFuture<Void> producing = WORKLOAD.produceAllInBackground(servers.kafka().bootstrapServers(),
					TOPIC);
			await().atMost(Duration.ofMinutes(1)).until(() -> written(registry) >= 5_000);

			// the disk fails: the snapshot's directory is gone, BGSAVE fails, and Redis
			// refuses writes
			Path disk = Files.createTempDirectory("sawmill-misconf-");
			assertThat(servers.redis().command("CONFIG", "SET", "dir", disk.toString())).isEqualTo("+OK");
			Files.delete(disk);
			assertThat(servers.redis().command("BGSAVE")).startsWith("+");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> servers.redis().command("SET", "probe", "1").startsWith("-MISCONF"));
			// the outage lasts until Sawmill has met the refusal and handed batches back
			// to be polled again three times, and Redis still refuses: each time it kept
			// the records for a retry
			double redeliveredBefore = redelivered(registry);
			await().atMost(Duration.ofMinutes(2)).until(() -> redelivered(registry) >= redeliveredBefore + 3);
			assertThat(servers.redis().command("SET", "probe", "1")).startsWith("-MISCONF");
			assertThat(registry.find("sawmill.records").tag("outcome", "dead_lettered").counter()).isNull();

			// the disk is fixed: a writable directory, a snapshot that succeeds
			Path fixed = Files.createTempDirectory("sawmill-misconf-fixed-");
			assertThat(servers.redis().command("CONFIG", "SET", "dir", fixed.toString())).isEqualTo("+OK");
			assertThat(servers.redis().command("BGSAVE")).startsWith("+");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> servers.redis().command("SET", "probe", "1").equals("+OK"));
			producing.get();

			FaultAssertions.awaitAllCommitted(admin, "misconf", TOPIC, PARTITIONS, WORKLOAD.records(),
					Duration.ofMinutes(3));
			RedisVerifier.Result result = WORKLOAD.verify(servers.redis().host(), servers.redis().port(),
					FaultAssertions.TTL);
			assertThat(result.allVerified()).as(result.toString()).isTrue();
			assertThat(registry.find("sawmill.records").tag("outcome", "dead_lettered").counter()).isNull();
			assertThat(Kafka.sum(Kafka.endOffsets(admin, FaultAssertions.deadLetterTopic(TOPIC), PARTITIONS)))
				.as("records in the dead-letter topic")
				.isZero();
		}
	}

	private static double redelivered(MeterRegistry registry) {
		return registry.get("sawmill.batch.redelivered").counter().count();
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
