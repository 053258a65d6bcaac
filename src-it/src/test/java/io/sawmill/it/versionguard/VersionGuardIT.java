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
package io.sawmill.it.versionguard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.mapping.VersionGuard;

/**
 * Version-guarded writes ({@code sawmill.mapping.version}) end to end on a real broker
 * and a real redis-server: a replay from the beginning of a topic changes nothing,
 * revisions of one entity spread over partitions and produced out of order end at the
 * newest, a late record after a tombstone stays deleted, and functions flushed mid-drain
 * are loaded again without losing or dead-lettering a record.
 */
class VersionGuardIT {

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic("replay", 3)
		.andTopic("spread", 4)
		.andTopic("tombstones", 2)
		.andTopic("flushed", 4);

	private static RedisClient client;

	private static StatefulRedisConnection<String, String> connection;

	private static RedisCommands<String, String> redis;

	@BeforeAll
	static void connect() {
		client = RedisClient.create(RedisURI.create(servers.redis().host(), servers.redis().port()));
		connection = client.connect();
		redis = connection.sync();
	}

	@AfterAll
	static void disconnect() {
		connection.close();
		client.shutdown();
	}

	static Map<String, Object> properties(Map<String, Object> base) {
		base.put("sawmill.mapping.key-template", VersionedProducer.KEY_TEMPLATE);
		base.put("sawmill.mapping.version", VersionedProducer.VERSION);
		base.put("sawmill.concurrency", 4);
		return base;
	}

	private static Map<String, Object> properties(String topic, String group) {
		return properties(SawmillApp.baseProperties(servers, topic, group));
	}

	static double count(ConfigurableApplicationContext app, String outcome) {
		Counter counter = app.getBean(MeterRegistry.class).find("sawmill.records").tag("outcome", outcome).counter();
		return counter == null ? 0 : counter.count();
	}

	/**
	 * Waits until the group committed every offset of the topic (a partition without
	 * records has none to commit).
	 */
	static void awaitDrained(Admin admin, String topic, int partitions, String group) throws Exception {
		Map<org.apache.kafka.common.TopicPartition, Long> end = new java.util.HashMap<>(
				Kafka.endOffsets(admin, topic, partitions));
		end.values().removeIf(offset -> offset == 0);
		await().atMost(Duration.ofMinutes(3))
			.pollInterval(Duration.ofMillis(300))
			.until(() -> Kafka.committedOffsets(admin, group).equals(end));
	}

	/**
	 * Waits until the app counted {@code records} records written or stale: its outcomes
	 * are counted just after the commit.
	 */
	static void awaitCounted(ConfigurableApplicationContext app, long records) {
		await().atMost(Duration.ofSeconds(30)).until(() -> count(app, "written") + count(app, "stale") >= records);
	}

	static void assertNothingDeadLettered(ConfigurableApplicationContext app) {
		assertThat(count(app, "dead_lettered")).isZero();
		assertThat(count(app, "invalid")).isZero();
	}

	/** Every entity's hash holds its newest revision and the version field. */
	static void assertNewest(RedisCommands<String, String> redis, String topic, int entities, int newest) {
		for (long id = 0; id < entities; id++) {
			Map<String, String> hash = redis.hgetall(VersionedProducer.redisKey(topic, id));
			assertThat(hash).as(VersionedProducer.redisKey(topic, id))
				.containsEntry("rev", Long.toString(newest))
				.containsEntry("name", VersionedProducer.name(id, newest))
				.containsEntry(VersionGuard.VERSION_FIELD, Long.toString(newest));
		}
	}

	@Test
	void shouldChangeNothingWhenTheTopicIsReplayedFromTheBeginning() throws Exception {
		int entities = 300;
		int revisions = 5;
		VersionedProducer.send(servers.kafka().bootstrapServers(),
				VersionedProducer.inOrder("replay", 3, entities, revisions));
		try (Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			try (ConfigurableApplicationContext first = SawmillApp.run(properties("replay", "vg-first"))) {
				awaitDrained(admin, "replay", 3, "vg-first");
				awaitCounted(first, entities * revisions);
				assertThat(count(first, "written")).isEqualTo(entities * revisions);
			}
			assertNewest(redis, "replay", entities, revisions - 1);

			// a new group reads the topic from its beginning: a replay of every record
			try (ConfigurableApplicationContext replay = SawmillApp.run(properties("replay", "vg-replay"))) {
				awaitDrained(admin, "replay", 3, "vg-replay");
				awaitCounted(replay, entities * revisions);
				assertThat(count(replay, "stale")).isEqualTo(entities * (revisions - 1));
				// the newest: an equal version, applied again
				assertThat(count(replay, "written")).isEqualTo(entities);
				assertNothingDeadLettered(replay);
			}
			assertNewest(redis, "replay", entities, revisions - 1);
		}
	}

	@Test
	void shouldEndAtTheNewestRevisionWhenRevisionsComeOutOfOrderThroughSeveralPartitions() throws Exception {
		int entities = 200;
		int revisions = 8;
		VersionedProducer.send(servers.kafka().bootstrapServers(),
				VersionedProducer.spreadNewestFirst("spread", 4, entities, revisions));
		try (Admin admin = Kafka.admin(servers.kafka().bootstrapServers());
				ConfigurableApplicationContext app = SawmillApp.run(properties("spread", "vg-spread"))) {
			awaitDrained(admin, "spread", 4, "vg-spread");
			awaitCounted(app, entities * revisions);

			assertNewest(redis, "spread", entities, revisions - 1);
			assertThat(count(app, "written") + count(app, "stale")).isEqualTo(entities * revisions);
			assertNothingDeadLettered(app);
		}
	}

	@Test
	void shouldKeepADeletedKeyDeletedWhenAnOlderRecordComesLate() throws Exception {
		String bootstrap = servers.kafka().bootstrapServers();
		String key = VersionedProducer.redisKey("tombstones", 1);
		try (Admin admin = Kafka.admin(bootstrap);
				ConfigurableApplicationContext app = SawmillApp.run(properties("tombstones", "vg-tombstones"))) {
			VersionedProducer.send(bootstrap, List.of(VersionedProducer.revision("tombstones", 0, 1, 5),
					VersionedProducer.tombstone("tombstones", 0, 1, 6)));
			awaitDrained(admin, "tombstones", 2, "vg-tombstones");
			VersionedProducer.send(bootstrap,
					List.<ProducerRecord<byte[], byte[]>>of(VersionedProducer.revision("tombstones", 1, 1, 4)));
			awaitDrained(admin, "tombstones", 2, "vg-tombstones");
			awaitCounted(app, 3);

			// only the tombstone's marker: its version, for
			// sawmill.mapping.tombstone-retention (1h)
			assertThat(redis.hgetall(key)).containsExactly(Map.entry(VersionGuard.VERSION_FIELD, "6"));
			assertThat(redis.pttl(key)).isBetween(1L, Duration.ofHours(1).toMillis());
			assertThat(count(app, "stale")).isEqualTo(1);

			VersionedProducer.send(bootstrap,
					List.<ProducerRecord<byte[], byte[]>>of(VersionedProducer.revision("tombstones", 1, 1, 7)));
			awaitDrained(admin, "tombstones", 2, "vg-tombstones");
			assertThat(redis.hgetall(key)).containsEntry("name", VersionedProducer.name(1, 7))
				.containsEntry(VersionGuard.VERSION_FIELD, "7");
			assertNothingDeadLettered(app);
		}
	}

	@Test
	void shouldLoadTheFunctionsAgainWhenTheyAreFlushedMidDrainAndLoseNothing() throws Exception {
		int entities = 2_000;
		int maxRevisions = 100;
		String functionLoads = "cmdstat_function|load:calls=";
		long loadsBefore = loads(functionLoads);
		Map<String, Object> properties = properties("flushed", "vg-flushed");
		properties.put("sawmill.batch-size", 200);
		try (Admin admin = Kafka.admin(servers.kafka().bootstrapServers());
				ConfigurableApplicationContext app = SawmillApp.run(properties)) {
			AtomicBoolean draining = new AtomicBoolean(true);
			Thread flusher = new Thread(() -> {
				// flush the functions again and again while the topic drains
				while (draining.get()) {
					servers.redis().command("FUNCTION", "FLUSH", "SYNC");
					await().pollDelay(Duration.ofMillis(300)).until(() -> true);
				}
			});
			VersionedProducer.send(servers.kafka().bootstrapServers(),
					VersionedProducer.round("flushed", 4, entities, 0));
			await().atMost(Duration.ofMinutes(1)).until(() -> count(app, "written") > 0);
			flusher.start();
			int revisions = 1;
			try {
				// a revision of every entity at a time, until Redis lost the functions
				// and Sawmill loaded them again twice after the start-up's load: a drain
				// that outpaces the flushes cannot end the test early
				while (loads(functionLoads) < loadsBefore + 3) {
					assertThat(revisions).as("revisions sent before the functions were loaded again twice")
						.isLessThan(maxRevisions);
					VersionedProducer.send(servers.kafka().bootstrapServers(),
							VersionedProducer.round("flushed", 4, entities, revisions));
					revisions++;
					await().pollDelay(Duration.ofMillis(100)).until(() -> true);
				}
			}
			finally {
				draining.set(false);
				flusher.join();
			}
			awaitDrained(admin, "flushed", 4, "vg-flushed");
			awaitCounted(app, (long) entities * revisions);

			assertNewest(redis, "flushed", entities, revisions - 1);
			assertThat(count(app, "written") + count(app, "stale")).isEqualTo((long) entities * revisions);
			assertNothingDeadLettered(app);
		}
	}

	/** How many FUNCTION LOAD calls the server executed ({@code INFO commandstats}). */
	private static long loads(String stat) {
		String info = redis.info("commandstats");
		int at = info.indexOf(stat);
		if (at < 0) {
			return 0;
		}
		int end = info.indexOf(',', at);
		return Long.parseLong(info.substring(at + stat.length(), end));
	}

}
