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
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.lettuce.core.RedisURI;
import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.deadletter.internal.KafkaDeadLetterPublisher;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * {@code sawmill.coalesce-writes=true} on hot keys, many versions of few keys in one
 * topic: every key ends at its last version with its TTL while Redis executes far fewer
 * HSETs than there are records, and when a merged HSET is rejected (the key holds a
 * string: WRONGTYPE), every record folded into it is dead-lettered while the other keys
 * are written.
 */
class CoalescingIT {

	private static final String HOT = "hot";

	private static final String POISONED = "hot-poisoned";

	private static final VersionedEvents HOT_KEYS = new VersionedEvents(30_000, 50);

	private static final VersionedEvents POISONED_KEYS = new VersionedEvents(2_000, 20);

	/** Holds a string before any record comes: each of its records' HSET is rejected. */
	private static final long STRING_ID = 7;

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(HOT, 3).andTopic(POISONED, 1);

	@Test
	void shouldWriteEveryKeysLastVersionWithFarFewerHsetsThanRecords() throws Exception {
		// a backlog before the start, so batches are full and each holds many versions of
		// every key
		HOT_KEYS.produce(servers.kafka().bootstrapServers(), HOT, 0, HOT_KEYS.records());
		try (RedisReadBack redis = RedisReadBack.of(RedisURI.create(servers.redis().host(), servers.redis().port()));
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			long hsetsBefore = redis.hsetCalls();
			try (ConfigurableApplicationContext app = SawmillApp.run(properties(HOT, "coalesce-hot"))) {
				MeterRegistry registry = app.getBean(MeterRegistry.class);

				FaultAssertions.awaitAllCommitted(admin, "coalesce-hot", HOT, 3, HOT_KEYS.records(),
						Duration.ofMinutes(2));

				RedisVerifier.Result result = redis.verify(HOT_KEYS, FaultAssertions.TTL);
				assertThat(result.allVerified()).as(result.toString()).isTrue();
				long hsets = redis.hsetCalls() - hsetsBefore;
				System.out.printf("coalescing: %d records over %d keys, %d HSETs executed, %.0f writes coalesced%n",
						HOT_KEYS.records(), HOT_KEYS.keys(), hsets, coalesced(registry));
				assertThat(hsets).as("HSETs executed by Redis").isPositive().isLessThan(HOT_KEYS.records() / 2);
				assertThat(coalesced(registry)).isPositive();
				// counted just after the commit
				await().atMost(Duration.ofSeconds(10)).until(() -> records(registry, "written") == HOT_KEYS.records());
				assertThat(registry.find("sawmill.records").tag("outcome", "dead_lettered").counter()).isNull();
				assertThat(Kafka.sum(Kafka.endOffsets(admin, FaultAssertions.deadLetterTopic(HOT), 3))).isZero();
			}
		}
	}

	@Test
	void shouldDeadLetterEveryRecordFoldedIntoARejectedHsetAndWriteTheOtherKeys() throws Exception {
		assertThat(servers.redis().command("SET", SampleEvents.key(STRING_ID), "not a hash")).isEqualTo("+OK");
		POISONED_KEYS.produce(servers.kafka().bootstrapServers(), POISONED, 0, POISONED_KEYS.records());
		long recordsOfTheString = POISONED_KEYS.records() / POISONED_KEYS.keys();
		try (ConfigurableApplicationContext app = SawmillApp.run(properties(POISONED, "coalesce-poisoned"));
				RedisReadBack redis = RedisReadBack.of(RedisURI.create(servers.redis().host(), servers.redis().port()));
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);

			FaultAssertions.awaitAllCommitted(admin, "coalesce-poisoned", POISONED, 1, POISONED_KEYS.records(),
					Duration.ofMinutes(2));

			RedisVerifier.Result result = redis.verify(POISONED_KEYS, FaultAssertions.TTL);
			assertThat(result.verified()).as(result.toString()).isEqualTo(POISONED_KEYS.keys() - 1);
			assertThat(result.wrongHash()).as(result.toString()).isOne();
			assertThat(servers.redis().command("TYPE", SampleEvents.key(STRING_ID))).isEqualTo("+string");
			List<ConsumerRecord<byte[], byte[]>> dead = Kafka.readAll(servers.kafka().bootstrapServers(),
					FaultAssertions.deadLetterTopic(POISONED), recordsOfTheString);
			assertThat(dead).hasSize((int) recordsOfTheString).allSatisfy(record -> {
				assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(SampleEvents.userId(STRING_ID));
				assertThat(new String(record.headers().lastHeader(KafkaDeadLetterPublisher.REASON_HEADER).value(),
						StandardCharsets.UTF_8))
					.contains("WRONGTYPE");
			});
			await().atMost(Duration.ofSeconds(10))
				.until(() -> records(registry, "written") == POISONED_KEYS.records() - recordsOfTheString);
			assertThat(records(registry, "dead_lettered")).isEqualTo(recordsOfTheString);
			assertThat(coalesced(registry)).isPositive();
		}
	}

	private static Map<String, Object> properties(String topic, String group) {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, topic, group);
		properties.put("sawmill.coalesce-writes", true);
		return properties;
	}

	private static double coalesced(MeterRegistry registry) {
		return registry.get("sawmill.writes.coalesced").counter().count();
	}

	private static long records(MeterRegistry registry, String outcome) {
		return (long) registry.find("sawmill.records")
			.tag("outcome", outcome)
			.counters()
			.stream()
			.mapToDouble(counter -> counter.count())
			.sum();
	}

}
