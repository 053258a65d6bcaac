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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.testkit.RedisSentinelProcess;
import io.sawmill.testkit.RedisServerProcess;
import io.sawmill.testkit.RedisVerifier;

/**
 * Sawmill against a Sentinel-managed Redis, configured as a deployment is
 * ({@code spring.data.redis.sentinel.master} and {@code .nodes}, no host), through
 * failovers: while Sawmill is connected, the Sentinel promotes the replica, as a managed
 * Redis does during maintenance, or because the master was killed, and the old master
 * becomes its replica. Every key must end with its last version and a TTL on the new
 * master, every offset must be committed, and nothing may be dead-lettered.
 */
class RedisSentinelFailoverIT {

	private static final String TOPIC = "sentinel";

	private static final String GROUP = "sentinel";

	private static final int PARTITIONS = 3;

	/**
	 * Four versions of each key: versions 0 and 1 before the failover, 2 and 3 after it.
	 */
	private static final VersionedEvents WORKLOAD = new VersionedEvents(20_000, 5_000);

	/** Ten versions of each key, drained while the Sentinel fails over. */
	private static final VersionedEvents BACKLOG = new VersionedEvents(200_000, 20_000);

	private static KafkaServer kafka;

	private static RedisSentinelProcess redis;

	@BeforeAll
	static void startServers() {
		redis = RedisSentinelProcess.startNew();
		kafka = KafkaServer.start();
		kafka.createTopic(TOPIC, PARTITIONS);
	}

	@AfterAll
	static void stopServers() {
		if (kafka != null) {
			kafka.close();
		}
		if (redis != null) {
			redis.close();
		}
	}

	/**
	 * A failover while a backlog drains. The Sentinel promotes the replica, but the old
	 * master keeps taking writes until the Sentinel turns it into the new master's
	 * replica, and then drops them: Redis replicates asynchronously. With
	 * {@code wait-for-replicas} those writes are never confirmed (the promoted replica no
	 * longer replicates from the old master), so they are written again and not
	 * committed. Run with {@code -Dsawmill-it.sentinel.wait-for-replicas=0} to see what a
	 * master's acknowledgement alone loses: then this test fails with the keys that went
	 * back to an older version.
	 */
	@Test
	void shouldLoseNothingWhenTheSentinelFailsOverUnderLoadWithWaitForReplicas() throws Exception {
		drainThrough("sentinel-load", "sentinel-failover", waitForReplicas(), redis::failover);
	}

	/**
	 * The master is SIGKILLed while a backlog drains: the Sentinel sees it down after
	 * five seconds and promotes the replica, and the killed node, restarted empty,
	 * becomes the new master's replica. What the dead master acknowledged but had not
	 * replicated is gone with it; with {@code wait-for-replicas} none of that was
	 * committed, so it is written again to the new master.
	 */
	@Test
	void shouldLoseNothingWhenTheSentinelMasterIsKilledUnderLoadWithWaitForReplicas() throws Exception {
		drainThrough("sentinel-crash", "sentinel-crash", waitForReplicas(), redis::crashMaster);
	}

	/**
	 * 1, or what {@code -Dsawmill-it.sentinel.wait-for-replicas} says, to see what 0
	 * loses.
	 */
	private static int waitForReplicas() {
		return Integer.getInteger("sawmill-it.sentinel.wait-for-replicas", 1);
	}

	/**
	 * Drains {@link #BACKLOG} from a topic of its own while it is produced, runs
	 * {@code fault} once 20,000 records are written, and checks every key's last version
	 * and TTL on the master the Sentinel names afterwards, every offset committed, and no
	 * dead letter.
	 */
	private static void drainThrough(String topic, String scenario, int waitForReplicas, Runnable fault)
			throws Exception {
		kafka.createTopic(topic, PARTITIONS);
		Map<String, Object> properties = SawmillApp.baseProperties(kafka, redis, topic, topic);
		properties.put("sawmill.batch-size", 500);
		properties.put("sawmill.pipeline.timeout", "2s");
		properties.put("sawmill.pipeline.wait-for-replicas", waitForReplicas);
		properties.put("sawmill.pipeline.replica-timeout", "500ms");
		properties.put("sawmill.circuit-breaker.open-wait", "1s");
		String bootstrap = kafka.bootstrapServers();
		try (ConfigurableApplicationContext app = SawmillApp.run(properties); Admin admin = Kafka.admin(bootstrap)) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			CompletableFuture<Void> producing = CompletableFuture.runAsync(() -> {
				for (long from = 0; from < BACKLOG.records(); from += 2_000) {
					BACKLOG.produce(bootstrap, topic, from, from + 2_000);
				}
			});
			await().atMost(Duration.ofMinutes(1)).until(() -> written(registry) >= BACKLOG.keys());
			RedisServerProcess before = redis.master();
			fault.run();
			RedisServerProcess after = redis.master();
			assertThat(after).isNotSameAs(before);
			producing.get();

			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, topic, PARTITIONS);
			assertThat(Kafka.sum(end)).isEqualTo(BACKLOG.records());
			await().atMost(Duration.ofMinutes(2)).until(() -> Kafka.committedOffsets(admin, topic).equals(end));

			RedisVerifier.Result result = BACKLOG.verify(after.host(), after.port(), FaultAssertions.TTL);
			System.out.printf(
					"%s (wait-for-replicas %d): produced %d, keys verified %d of %d, written %.0f, "
							+ "re-polled %.0f%n",
					scenario, waitForReplicas, BACKLOG.records(), result.verified(), BACKLOG.keys(), written(registry),
					outcome(registry, "retried"));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
			assertThat(registry.find("sawmill.records").tag("outcome", "dead_lettered").counter()).isNull();
		}
	}

	private static double written(MeterRegistry registry) {
		return outcome(registry, "written");
	}

	private static double outcome(MeterRegistry registry, String outcome) {
		return registry.find("sawmill.records")
			.tag("outcome", outcome)
			.counters()
			.stream()
			.mapToDouble(c -> c.count())
			.sum();
	}

	@Test
	void shouldWriteToTheNewMasterAfterASentinelFailoverAndLoseNothing() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(kafka, redis, TOPIC, GROUP);
		properties.put("sawmill.batch-size", 500);
		properties.put("sawmill.pipeline.timeout", "2s");
		properties.put("sawmill.circuit-breaker.open-wait", "1s");
		String bootstrap = kafka.bootstrapServers();
		try (ConfigurableApplicationContext app = SawmillApp.run(properties); Admin admin = Kafka.admin(bootstrap)) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			assertThat(app.getBean(PipelineConfig.class).waitForReplicas()).as("the default with Sentinel")
				.isEqualTo(1);
			long half = WORKLOAD.records() / 2;
			WORKLOAD.produce(bootstrap, TOPIC, 0, half);
			Map<TopicPartition, Long> firstHalf = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
			await().atMost(Duration.ofMinutes(1)).until(() -> Kafka.committedOffsets(admin, GROUP).equals(firstHalf));

			RedisServerProcess before = redis.master();
			redis.failover();
			RedisServerProcess after = redis.master();
			assertThat(after).isNotSameAs(before);

			WORKLOAD.produce(bootstrap, TOPIC, half, WORKLOAD.records());
			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
			assertThat(Kafka.sum(end)).isEqualTo(WORKLOAD.records());
			await().atMost(Duration.ofMinutes(2)).until(() -> Kafka.committedOffsets(admin, GROUP).equals(end));

			RedisVerifier.Result result = WORKLOAD.verify(after.host(), after.port(), FaultAssertions.TTL);
			assertThat(result.allVerified()).as(result.toString()).isTrue();
			assertThat(registry.find("sawmill.records").tag("outcome", "dead_lettered").counter()).isNull();
			assertThat(written(registry)).isGreaterThanOrEqualTo(WORKLOAD.records());
		}
	}

}
