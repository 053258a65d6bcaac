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
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;

import io.lettuce.core.RedisURI;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.KafkaBrokerProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * Fault scenario 4: the Kafka broker, a JVM of its own, is SIGKILLed while records flow
 * and Sawmill consumes, and comes back on the same port and log directory a few seconds
 * later. Sawmill rides it out: every record the producer had acknowledged is written, and
 * the group commits every offset.
 */
class KafkaBrokerRestartIT {

	private static final String SCENARIO = "4-kafka-broker-restarted";

	private static final String TOPIC = "fault-broker-restart";

	private static final String GROUP = "fault-broker-restart";

	private static final int PARTITIONS = 3;

	private static final VersionedEvents EVENTS = new VersionedEvents(16_000, 4_000);

	private static final int RECORDS_PER_SECOND = 2_000;

	private static final Duration DOWNTIME = Duration.ofSeconds(4);

	private static RedisServerProcess redis;

	private static KafkaBrokerProcess kafka;

	private static Admin admin;

	@BeforeAll
	static void startServers() throws Exception {
		redis = RedisServerProcess.startNew();
		kafka = KafkaBrokerProcess.start(FaultAssertions.target("fault-kafka"));
		admin = Kafka.admin(kafka.bootstrapServers());
		FaultAssertions.createTopics(admin, TOPIC, PARTITIONS);
	}

	@AfterAll
	static void stopServers() {
		if (admin != null) {
			admin.close(Duration.ofSeconds(5));
		}
		if (kafka != null) {
			kafka.close();
		}
		if (redis != null) {
			redis.close();
		}
	}

	@Test
	@Timeout(value = 4, unit = TimeUnit.MINUTES)
	void shouldWriteEveryKeysLastVersionWhenTheBrokerIsKilledAndRestartedMidStream() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(new KafkaServer.Local(kafka), redis, TOPIC, GROUP);
		properties.put("sawmill.concurrency", 2);
		properties.put("sawmill.batch-size", 500);
		try (ConfigurableApplicationContext app = SawmillApp.run(properties);
				RedisReadBack readBack = RedisReadBack.of(RedisURI.create(redis.host(), redis.port()));
				EventProducer producer = new EventProducer(kafka.bootstrapServers(), TOPIC, EVENTS)) {
			CompletableFuture<Void> sending = producer.sendAtRate(0, RECORDS_PER_SECOND);
			await("a quarter of the records written").atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> readBack.hsetCalls() >= EVENTS.records() / 4);

			kafka.kill();
			long hsetsAtKill = readBack.hsetCalls();
			long acknowledgedAtKill = producer.acknowledged();
			Thread.sleep(DOWNTIME.toMillis());
			long down = System.nanoTime();
			kafka.start();
			long restartMillis = DOWNTIME.toMillis() + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - down);
			System.out.printf(
					"FAULT %s: broker SIGKILLed with %d HSETs executed and %d records acknowledged; "
							+ "it answered again after %d ms%n",
					SCENARIO, hsetsAtKill, acknowledgedAtKill, restartMillis);
			assertThat(hsetsAtKill).as("killed mid-stream").isLessThan(EVENTS.records());

			sending.get(3, TimeUnit.MINUTES);
			producer.awaitAllAcknowledged();
			FaultAssertions.Figures figures = FaultAssertions.assertNothingLost(SCENARIO, admin, GROUP, TOPIC,
					PARTITIONS, EVENTS, readBack, Duration.ofMinutes(2));
			Counter retried = app.getBean(MeterRegistry.class)
				.find("sawmill.records")
				.tag("outcome", "retried")
				.counter();
			System.out.printf("FAULT %s: %d written twice; %d records polled again after a failed batch%n", SCENARIO,
					figures.duplicates(), retried == null ? 0 : (long) retried.count());
		}
	}

}
