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
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.sawmill.deadletter.internal.KafkaDeadLetterPublisher;
import io.sawmill.it.support.Kafka;
import io.sawmill.mapping.VersionGuard;
import io.sawmill.testkit.KafkaTestBroker;
import io.sawmill.testkit.RedisServerProcess;
import io.sawmill.testkit.ShareGroupFeature;

/**
 * Share groups (KIP-932) end to end: two Sawmill processes with three consumer threads
 * each read a topic of two partitions as one share group, on a real KRaft broker with
 * share groups on (a 3 s acquisition lock) and a real redis-server. Every thread receives
 * records, one process is SIGKILLed mid-drain, and the records it held locked are
 * delivered again to the other once their locks expire: every key ends at its newest
 * version, and a poison record is in the dead-letter topic with its reason, as in the
 * consumer group mode. A Redis outage releasing rather than rejecting is shown in
 * {@code ShareConsumersTests}.
 */
class ShareGroupIT {

	private static final String TOPIC = "share-it";

	private static final int KEYS = 40;

	private static final int VERSIONS = 100;

	private static final Duration LOCK = Duration.ofSeconds(3);

	private static KafkaTestBroker kafka;

	private static RedisServerProcess redis;

	@BeforeAll
	static void startServers() {
		kafka = KafkaTestBroker.startWithShareGroups(LOCK).createTopic(TOPIC, 2);
		redis = RedisServerProcess.startNew();
	}

	@AfterAll
	static void stopServers() {
		ServerShutdown.closeAll(kafka, redis);
	}

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void shouldShareTwoPartitionsAmongSixThreadsAndLoseNothingWhenAProcessIsKilledMidDrain() throws Exception {
		Path logs = FaultAssertions.target("fault-logs");
		RedisClient client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			// the writer loads the version guard's library only for
			// sawmill.mapping.version (docs/mapping.md): a mapper of one's own that uses
			// it has it loaded first
			connection.sync().functionLoad(VersionGuard.librarySource(), true);
		}
		try (StatefulRedisConnection<String, String> reader = client.connect();
				SawmillProcess first = SawmillProcess.startMain(ShareApp.class, properties(),
						logs.resolve("share-group-first.log"));
				SawmillProcess second = SawmillProcess.startMain(ShareApp.class, properties(),
						logs.resolve("share-group-second.log"))) {
			// every thread a member before the records exist: no process drains them
			// alone
			ShareGroupFeature.awaitMembers(kafka.bootstrapServers(), TOPIC + "-share", 6, Duration.ofSeconds(90));
			try (KafkaProducer<String, String> producer = new KafkaProducer<>(
					Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringSerializer(),
					new StringSerializer())) {
				for (int v = 1; v <= VERSIONS; v++) {
					for (int k = 0; k < KEYS; k++) {
						producer.send(new ProducerRecord<>(TOPIC, "k" + k, Integer.toString(v)));
					}
					if (v == VERSIONS / 2) {
						producer.send(new ProducerRecord<>(TOPIC, "bad", "poison"));
					}
				}
			}
			await("all six threads received records").atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(20))
				.failFast("a Sawmill JVM exited", () -> !first.isAlive() || !second.isAlive())
				.until(() -> reader.sync().scard(ShareApp.THREADS) == 6);
			assertThat(written(reader)).as("killed mid-drain").isLessThan(KEYS);
			first.kill();

			try {
				await("every key at its newest version").atMost(Duration.ofSeconds(90))
					.failFast("the surviving Sawmill JVM exited", () -> !second.isAlive())
					.until(() -> written(reader) == KEYS);
			}
			catch (org.awaitility.core.ConditionTimeoutException ex) {
				throw new AssertionError(ex.getMessage() + "\n--- surviving Sawmill's log:\n" + second.logTail(), ex);
			}
			assertThat(reader.sync().smembers(ShareApp.THREADS)).as("pid:thread of every thread that wrote").hasSize(6);
			assertThat(reader.sync().scard(ShareApp.REDELIVERED))
				.as("records the killed process held, delivered again after their lock expired")
				.isPositive();
			List<ConsumerRecord<byte[], byte[]>> dead = Kafka.readAll(kafka.bootstrapServers(), TOPIC + ".DLT", 1);
			assertThat(dead).singleElement().satisfies(record -> {
				assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("bad");
				assertThat(new String(record.headers().lastHeader(KafkaDeadLetterPublisher.REASON_HEADER).value(),
						StandardCharsets.UTF_8))
					.isEqualTo("value is not a version: poison");
			});
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	/** Keys whose hash holds the newest version. */
	private static int written(StatefulRedisConnection<String, String> reader) {
		int written = 0;
		for (int k = 0; k < KEYS; k++) {
			if (Integer.toString(VERSIONS).equals(reader.sync().hget("share:k" + k, VersionGuard.VERSION_FIELD))) {
				written++;
			}
		}
		return written;
	}

	private static Map<String, Object> properties() {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("spring.kafka.bootstrap-servers", kafka.bootstrapServers());
		properties.put("spring.data.redis.host", redis.host());
		properties.put("spring.data.redis.port", redis.port());
		properties.put("sawmill.topics", TOPIC);
		properties.put("sawmill.group-id", TOPIC);
		properties.put("sawmill.consumption.mode", "share");
		properties.put("sawmill.consumption.share-group-id", TOPIC + "-share");
		properties.put("sawmill.concurrency", 3);
		properties.put("sawmill.batch-size", 10);
		properties.put("sawmill.redelivery.initial-backoff", "200ms");
		return properties;
	}

}
