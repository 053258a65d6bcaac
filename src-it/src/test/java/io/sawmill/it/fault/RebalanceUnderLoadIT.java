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

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;

import io.lettuce.core.RedisURI;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisServerProcess;

/**
 * Fault scenario 5: Sawmill instances of one group join and leave while records flow over
 * six partitions — A (2 threads) runs alone, B (2 threads) joins, A leaves, C (1 thread)
 * joins, B leaves — so partitions move between instances mid-stream, each move a
 * cooperative rebalance. A partition's in-flight batch is committed by the instance that
 * loses it or written again by the one that gains it; either way every key ends at its
 * last version.
 */
class RebalanceUnderLoadIT {

	private static final String SCENARIO = "5-rebalance-under-load";

	private static final String TOPIC = "fault-rebalance";

	private static final String GROUP = "fault-rebalance";

	private static final int PARTITIONS = 6;

	private static final VersionedEvents EVENTS = new VersionedEvents(20_000, 5_000);

	private static final int RECORDS_PER_SECOND = 1_500;

	private static RedisServerProcess redis;

	private static KafkaServer kafka;

	private static Admin admin;

	@BeforeAll
	static void startServers() throws Exception {
		redis = RedisServerProcess.startNew();
		kafka = KafkaServer.start();
		admin = Kafka.admin(kafka.bootstrapServers());
		FaultAssertions.createTopics(admin, TOPIC, PARTITIONS);
	}

	@AfterAll
	static void stopServers() {
		ServerShutdown.closeAll(admin, kafka, redis);
	}

	@Test
	@Timeout(value = 4, unit = TimeUnit.MINUTES)
	void shouldWriteEveryKeysLastVersionWhileInstancesJoinAndLeave() throws Exception {
		List<ConfigurableApplicationContext> running = new ArrayList<>();
		try (RedisReadBack readBack = RedisReadBack.of(RedisURI.create(redis.host(), redis.port()));
				EventProducer producer = new EventProducer(kafka.bootstrapServers(), TOPIC, EVENTS)) {
			ConfigurableApplicationContext a = start(running, "A", 2);
			awaitMembers(2);
			CompletableFuture<Void> sending = producer.sendAtRate(0, RECORDS_PER_SECOND);

			awaitWritten(readBack, 0.15);
			ConfigurableApplicationContext b = start(running, "B", 2);
			awaitMembers(4);
			awaitWritten(readBack, 0.35);
			stop(running, "A", a);
			start(running, "C", 1);
			awaitMembers(3);
			awaitWritten(readBack, 0.65);
			stop(running, "B", b);
			awaitMembers(1);

			sending.get(2, TimeUnit.MINUTES);
			producer.awaitAllAcknowledged();
			FaultAssertions.Figures figures = FaultAssertions.assertNothingLost(SCENARIO, admin, GROUP, TOPIC,
					PARTITIONS, EVENTS, readBack, Duration.ofMinutes(2));
			System.out.printf("FAULT %s: instance C finished alone; %d written twice%n", SCENARIO,
					figures.duplicates());
		}
		finally {
			running.forEach(ConfigurableApplicationContext::close);
		}
	}

	private static ConfigurableApplicationContext start(List<ConfigurableApplicationContext> running, String name,
			int threads) {
		Map<String, Object> properties = SawmillApp.baseProperties(kafka, redis, TOPIC, GROUP);
		properties.put("sawmill.concurrency", threads);
		properties.put("sawmill.batch-size", 200);
		ConfigurableApplicationContext app = SawmillApp.run(properties);
		running.add(app);
		System.out.printf("FAULT %s: instance %s (%d threads) joined%n", SCENARIO, name, threads);
		return app;
	}

	/**
	 * Closes an instance the way SIGTERM would: the in-flight batch finishes, the
	 * consumers leave.
	 */
	private static void stop(List<ConfigurableApplicationContext> running, String name,
			ConfigurableApplicationContext app) {
		app.close();
		running.remove(app);
		System.out.printf("FAULT %s: instance %s left%n", SCENARIO, name);
	}

	/**
	 * Waits until the group is stable with {@code members} consumers sharing all
	 * partitions.
	 */
	private static void awaitMembers(int members) {
		await("group of " + members + " consumers holding all " + PARTITIONS + " partitions")
			.atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.ignoreExceptions()
			.until(() -> {
				ConsumerGroupDescription group = ConsumerGroups.describe(admin, GROUP);
				return group.members().size() == members && ConsumerGroups.assignedPartitions(group) == PARTITIONS;
			});
	}

	private static void awaitWritten(RedisReadBack readBack, double share) {
		await("%.0f%% of the records written".formatted(share * 100)).atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> readBack.hsetCalls() >= (long) (EVENTS.records() * share));
	}

}
