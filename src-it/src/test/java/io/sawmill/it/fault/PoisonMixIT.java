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

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.support.KafkaHeaders;

import io.sawmill.deadletter.internal.KafkaDeadLetterPublisher;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisVerifier;

/**
 * Scenario 6, poison mix: invalid JSON, a missing key field, a key that already holds a
 * non-hash (WRONGTYPE) and an oversized record among good ones. Every good record is
 * written; each bad one is in the dead-letter topic with its reason and original
 * coordinates; everything is committed.
 */
class PoisonMixIT {

	private static final String TOPIC = "poison";

	private static final VersionedEvents GOOD = new VersionedEvents(6_000, 2_000);

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, 3);

	@Test
	void shouldWriteEveryGoodRecordAndDeadLetterEachBadOneWithItsReason() throws Exception {
		// user:wrongtype already holds a string: HSET on it fails with WRONGTYPE
		assertThat(servers.redis().command("SET", "user:wrongtype", "a plain string")).isEqualTo("+OK");
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "poison");
		properties.put("sawmill.max-record-size", "2KB");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties);
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			GOOD.produce(servers.kafka().bootstrapServers(), TOPIC, 0, 3_000);
			String bootstrap = servers.kafka().bootstrapServers();
			Kafka.produceOne(bootstrap, TOPIC, utf8("bad-json"), utf8("{\"userId\": \"x\", oops"));
			Kafka.produceOne(bootstrap, TOPIC, utf8("no-key"), utf8("{\"name\":\"has no userId\"}"));
			Kafka.produceOne(bootstrap, TOPIC, utf8("wrongtype"), utf8("{\"userId\":\"wrongtype\",\"name\":\"n\"}"));
			Kafka.produceOne(bootstrap, TOPIC, utf8("huge"),
					utf8("{\"userId\":\"huge\",\"blob\":\"" + "x".repeat(4096) + "\"}"));
			GOOD.produce(bootstrap, TOPIC, 3_000, 6_000);

			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, 3);
			await().atMost(Duration.ofMinutes(2)).until(() -> Kafka.committedOffsets(admin, "poison").equals(end));

			RedisVerifier.Result result = GOOD.verify(servers.redis().host(), servers.redis().port(),
					Duration.ofHours(1));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
			assertThat(servers.redis().command("TYPE", "user:wrongtype")).isEqualTo("+string");
			assertThat(servers.redis().command("EXISTS", "user:huge")).isEqualTo(":0");

			List<ConsumerRecord<byte[], byte[]>> dead = Kafka.readAll(bootstrap, TOPIC + ".DLT", 4);
			Map<String, String> reasons = dead.stream()
				.collect(Collectors.toMap(r -> new String(r.key(), StandardCharsets.UTF_8),
						r -> header(r, KafkaDeadLetterPublisher.REASON_HEADER)));
			assertThat(reasons).containsOnlyKeys("bad-json", "no-key", "wrongtype", "huge");
			assertThat(reasons.get("bad-json")).startsWith("value is not valid JSON");
			assertThat(reasons.get("no-key")).isEqualTo("key field 'userId' is missing, null or empty");
			assertThat(reasons.get("wrongtype")).contains("WRONGTYPE");
			assertThat(reasons.get("huge")).contains("exceeds sawmill.max-record-size");
			for (ConsumerRecord<byte[], byte[]> record : dead) {
				assertThat(header(record, KafkaHeaders.DLT_ORIGINAL_TOPIC)).isEqualTo(TOPIC);
				assertThat(ByteBuffer.wrap(record.headers().lastHeader(KafkaHeaders.DLT_ORIGINAL_OFFSET).value())
					.getLong()).isNotNegative();
				assertThat(header(record, KafkaDeadLetterPublisher.VERSION_HEADER)).isNotBlank();
			}
			assertThat(app.getBean(io.micrometer.core.instrument.MeterRegistry.class)
				.get("sawmill.records")
				.tag("outcome", "dead_lettered")
				.counter()
				.count()).isEqualTo(4);
		}
	}

	private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
		return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
	}

	private static byte[] utf8(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

}
