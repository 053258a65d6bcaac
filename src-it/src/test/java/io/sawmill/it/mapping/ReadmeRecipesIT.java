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
package io.sawmill.it.mapping;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;

/**
 * The README's "Recipes" YAML, taken from README.md as it is and loaded as a
 * configuration file (no other mapping property), against a real broker and redis-server:
 * every route's final Redis state, TTLs, committed offsets and dead letters are asserted
 * exactly, so the README cannot drift from what the service does.
 * <p>
 * The redis-server keeps one entry per stream node, so that {@code XADD MAXLEN ~} trims
 * exactly and the stream's length can be asserted.
 */
class ReadmeRecipesIT {

	private static final Map<String, Integer> TOPICS = Map.of("users", 1, "sessions", 1, "scores", 1, "presence", 2,
			"posts", 1, "clicks", 1, "erasures", 1, "orders-eu", 1, "orders-us", 1);

	@RegisterExtension
	static final RealServers servers = servers();

	private static RealServers servers() {
		RealServers servers = RealServers.withTopic("users", 1).redisArgs("--stream-node-max-entries", "1");
		TOPICS.forEach(servers::andTopic);
		return servers;
	}

	@Test
	// the try keeps Sawmill running for its body, which never calls it
	@SuppressWarnings("try")
	void theReadmeRecipesRunFromYamlAloneAndLeaveEveryRedisTypeExactlyAsDocumented(@TempDir Path dir) throws Exception {
		RedisClient client = RedisClient.create("redis://" + servers.redis().host() + ":" + servers.redis().port());
		try (StatefulRedisConnection<String, String> connection = client.connect();
				KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
						Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers.kafka().bootstrapServers(),
								ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 5),
						new ByteArraySerializer(), new ByteArraySerializer())) {
			RedisCommands<String, String> redis = connection.sync();
			Records records = new Records(producer, new java.util.concurrent.CopyOnWriteArrayList<>());
			records.send("users", 0, "u1", "{\"name\":\"Ann\",\"city\":\"Oslo\"}");
			records.send("users", 0, "u1", "{\"name\":\"Ann\",\"age\":31}");
			records.send("users", 0, "u2", "{\"name\":\"Bob\"}");
			records.send("users", 0, "u2", null);
			records.send("sessions", 0, "s1", "{\"token\":\"abc\"}", "ttl", "120");
			records.send("sessions", 0, "s1", "{\"token\":\"def\"}", "ttl", "300");
			records.send("sessions", 0, "s2", "{\"token\":\"xyz\"}");
			records.send("sessions", 0, "s3", "{\"other\":1}");
			records.send("scores", 0, "p1", "{\"points\":10}");
			records.send("scores", 0, "p2", "{\"points\":20.5}");
			records.send("scores", 0, "p1", "{\"points\":15}");
			records.send("scores", 0, "p3", "{\"points\":5}");
			records.send("scores", 0, "p3", null);
			records.send("presence", 0, "k1", "here");
			records.send("presence", 0, "k2", "here");
			records.send("presence", 0, "k2", null);
			records.send("presence", 1, "k3", "here");
			for (int i = 0; i < 105; i++) {
				records.send("posts", 0, "post" + i, "{\"authorId\":\"a1\",\"n\":" + i + "}");
			}
			for (int i = 0; i < 10_050; i++) {
				records.send("clicks", 0, "c1", "{\"page\":\"/p" + i + "\",\"at\":" + i + ",\"noise\":\"x\"}");
			}
			redis.hset("user:gone", "name", "Eve");
			records.send("erasures", 0, "gone", "{}");
			records.send("orders-eu", 0, "o1", "{\"total\":1}");
			records.send("orders-us", 0, "o2", "not json");
			producer.flush();
			assertThat(records.failures()).as("records that could not be produced").isEmpty();

			Map<String, Object> properties = SawmillApp.baseProperties(servers, "unused", "readme-recipes");
			properties.remove("sawmill.topics");
			properties.remove("sawmill.mapping.key-template");
			properties.remove("sawmill.mapping.ttl");
			properties.put("spring.config.additional-location", recipesFile(dir).toUri().toString());
			try (ConfigurableApplicationContext app = SawmillApp.run(properties)) {
				awaitCommitted("readme-recipes");
			}

			// users: HASH, REPLACE, ttl 1h; a tombstone deletes
			assertThat(redis.hgetall("user:u1")).containsExactlyInAnyOrderEntriesOf(Map.of("name", "Ann", "age", "31"));
			assertThat(redis.ttl("user:u1")).isBetween(3000L, 3600L);
			assertThat(redis.exists("user:u2")).isZero();
			// sessions: STRING of one field, TTL from the header, none without it
			assertThat(redis.get("session:s1")).isEqualTo("def");
			assertThat(redis.ttl("session:s1")).isBetween(240L, 300L);
			assertThat(redis.get("session:s2")).isEqualTo("xyz");
			assertThat(redis.ttl("session:s2")).isEqualTo(-1L);
			assertThat(redis.exists("session:s3")).isZero();
			// scores: SORTED_SET, the last score wins, a tombstone removes the member
			assertThat(redis.zrangeWithScores("board:scores", 0, -1)).containsExactly(ScoredValue.just(15, "p1"),
					ScoredValue.just(20.5, "p2"));
			assertThat(redis.ttl("board:scores")).isEqualTo(-1L);
			// presence: SET per partition, a tombstone SREMs
			assertThat(redis.smembers("online:0")).containsExactly("k1");
			assertThat(redis.smembers("online:1")).containsExactly("k3");
			// posts: LIST keyed by a value field, the newest 100 first, the whole value
			// as the element
			List<String> feed = redis.lrange("feed:a1", 0, -1);
			assertThat(feed).hasSize(100);
			assertThat(feed.get(0)).isEqualTo("{\"authorId\":\"a1\",\"n\":104}");
			assertThat(feed.get(99)).isEqualTo("{\"authorId\":\"a1\",\"n\":5}");
			// clicks: STREAM of the two named fields, trimmed to 10,000
			assertThat(redis.xlen("clicks:c1")).isEqualTo(10_000L);
			List<StreamMessage<String, String>> ends = redis.xrange("clicks:c1", Range.create("-", "+"),
					io.lettuce.core.Limit.from(1));
			assertThat(ends.get(0).getBody()).containsExactly(Map.entry("page", "/p50"), Map.entry("at", "50"));
			List<StreamMessage<String, String>> last = redis.xrevrange("clicks:c1", Range.create("-", "+"),
					io.lettuce.core.Limit.from(1));
			assertThat(last.get(0).getBody()).containsExactly(Map.entry("page", "/p10049"), Map.entry("at", "10049"));
			// erasures: DELETE
			assertThat(redis.exists("user:gone")).isZero();
			// orders: a pattern route over both topics, with its own dead-letter topic
			assertThat(redis.keys("order:*")).containsExactly("order:orders-eu:o1");
			assertThat(redis.hgetall("order:orders-eu:o1")).containsExactlyEntriesOf(Map.of("total", "1"));

			assertDeadLetters("sessions.DLT", "s3");
			assertDeadLetters("dlt-orders", "o2");
		}
		finally {
			client.shutdown();
		}
	}

	/** The README's recipes block, verbatim, as a YAML file. */
	private static Path recipesFile(Path dir) throws IOException {
		String readme = Files.readString(Path.of("..", "README.md"));
		Matcher block = Pattern.compile("## Recipes.*?```yaml\\n(.*?)```", Pattern.DOTALL).matcher(readme);
		assertThat(block.find()).as("README.md has a Recipes section with a yaml block").isTrue();
		Path file = dir.resolve("recipes.yml");
		Files.writeString(file, block.group(1));
		return file;
	}

	private static void awaitCommitted(String group) throws Exception {
		RouteAssertions.awaitCommitted(servers.kafka().bootstrapServers(), group, TOPICS);
	}

	private static void assertDeadLetters(String topic, String... keys) {
		RouteAssertions.assertDeadLetters(servers.kafka().bootstrapServers(), topic, keys);
	}

	/**
	 * Sends records to explicit partitions without waiting; what could not be produced is
	 * kept in {@code failures}.
	 */
	private record Records(KafkaProducer<byte[], byte[]> producer, List<Exception> failures) {

		void send(String topic, int partition, String key, String value, String... header) {
			ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition, key.getBytes(UTF_8),
					value == null ? null : value.getBytes(UTF_8));
			if (header.length == 2) {
				record.headers().add(header[0], header[1].getBytes(UTF_8));
			}
			producer.send(record, (metadata, failure) -> {
				if (failure != null) {
					failures.add(failure);
				}
			});
		}
	}

}
