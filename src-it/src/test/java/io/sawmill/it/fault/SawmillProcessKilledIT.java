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

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.lettuce.core.RedisURI;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisServerProcess;

/**
 * Fault scenario 3: the Sawmill service, running as its own JVM from the executable jar,
 * is SIGKILLed while records flow — no shutdown hook, no last commit — and started again.
 * Whatever the killed process wrote but had not committed is polled and written again;
 * nothing is lost.
 * <p>
 * Sawmill reaches Redis through a proxy that holds each reply back 100 ms (a far-away
 * Redis), so every batch spends 100 ms executed in Redis but not yet committed, and the
 * kill lands there.
 */
class SawmillProcessKilledIT {

	private static final String SCENARIO = "3-sawmill-process-sigkilled";

	private static final String TOPIC = "fault-killed-app";

	private static final String GROUP = "fault-killed-app";

	private static final int PARTITIONS = 3;

	private static final VersionedEvents EVENTS = new VersionedEvents(20_000, 4_000);

	private static final int RECORDS_PER_SECOND = 4_000;

	private static final Duration REPLY_DELAY = Duration.ofMillis(100);

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
	void shouldWriteEveryKeysLastVersionWhenTheProcessIsKilledMidStreamAndRestarted() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(kafka, redis, TOPIC, GROUP);
		properties.put("sawmill.concurrency", 2);
		properties.put("sawmill.batch-size", 500);
		// the killed members leave the group after 6 s instead of 45 s
		properties.put("spring.kafka.consumer.properties[session.timeout.ms]", 6000);
		properties.put("spring.kafka.consumer.properties[heartbeat.interval.ms]", 1000);
		Path logs = FaultAssertions.target("fault-logs");
		SawmillProcess first = null;
		SawmillProcess second = null;
		try (ReplyDelayProxy proxy = ReplyDelayProxy.start(redis.host(), redis.port(), REPLY_DELAY);
				RedisReadBack readBack = RedisReadBack.of(RedisURI.create(redis.host(), redis.port()));
				EventProducer producer = new EventProducer(kafka.bootstrapServers(), TOPIC, EVENTS)) {
			properties.put("spring.data.redis.port", proxy.port());
			// half the records wait in the topic: the first process starts with a
			// backlog, so it is busy writing and committing batches back to back when it
			// is killed
			producer.send(0, EVENTS.records() / 2);
			producer.awaitAllAcknowledged();
			first = SawmillProcess.start(properties, logs.resolve(SCENARIO + "-first.log"));
			SawmillProcess starting = first;
			CompletableFuture<Void> sending = producer.sendAtRate(EVENTS.records() / 2, RECORDS_PER_SECOND);
			await("a quarter of the records written").atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(5))
				.failFast("the Sawmill JVM exited", () -> !starting.isAlive())
				.until(() -> readBack.hsetCalls() >= EVENTS.records() / 4);
			first.kill();
			// Redis runs what a connection delivered before it closes it: the count is
			// final once the killed process's connections are gone
			await("Redis closed the killed process's connections").atMost(Duration.ofSeconds(30))
				.until(() -> readBack.otherClients() == 0);
			long hsetsAtKill = readBack.hsetCalls();
			long committedAtKill = FaultAssertions.committed(admin, GROUP);
			System.out.printf("FAULT %s: SIGKILLed pid %d with %d HSETs executed and %d offsets committed%n", SCENARIO,
					first.pid(), hsetsAtKill, committedAtKill);
			assertThat(hsetsAtKill).as("killed after some records were written but not all")
				.isBetween(1L, EVENTS.records() - 1);
			assertThat(committedAtKill).as("killed between a batch's write and its commit").isLessThan(hsetsAtKill);

			second = SawmillProcess.start(properties, logs.resolve(SCENARIO + "-second.log"));
			sending.get(60, TimeUnit.SECONDS);
			producer.awaitAllAcknowledged();
			SawmillProcess restarted = second;
			FaultAssertions.Figures figures;
			try {
				figures = FaultAssertions.assertNothingLost(SCENARIO, admin, GROUP, TOPIC, PARTITIONS, EVENTS, readBack,
						Duration.ofSeconds(120));
			}
			catch (AssertionError | org.awaitility.core.ConditionTimeoutException ex) {
				throw new AssertionError(ex.getMessage() + "\n--- restarted Sawmill's log:\n" + restarted.logTail(),
						ex);
			}
			System.out.printf("FAULT %s: %d records written before the kill but not committed; %d written twice%n",
					SCENARIO, hsetsAtKill - committedAtKill, figures.duplicates());
			assertThat(figures.duplicates())
				.as("the restarted process wrote every record from the committed offsets on")
				.isGreaterThanOrEqualTo(hsetsAtKill - committedAtKill);
		}
		finally {
			if (first != null) {
				first.close();
			}
			if (second != null) {
				second.close();
			}
		}
	}

}
