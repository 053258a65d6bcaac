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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisClusterProcess;

/**
 * Routes from properties only, one route per Redis type, against a real broker and
 * redis-server: records with updates, tombstones and bad values are produced first, then
 * the service runs, and the final Redis state, the committed offsets and the dead-letter
 * topics are asserted exactly. The tests share the servers; each uses its own topics and
 * consumer group.
 */
class DeclarativeRoutesIT {

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic("profiles", 1)
		.andTopic("scores", 1)
		.andTopic("events", 1)
		.andTopic("flags", 1)
		.andTopic("tags", 1)
		.andTopic("feed", 1)
		.andTopic("purge", 1)
		.andTopic("people", 1)
		.andTopic("snapshots", 3)
		.andTopic("orders-eu", 1)
		.andTopic("orders-us", 1)
		.andTopic("audit", 1)
		.andTopic("quotes", 1);

	private static RedisClient client;

	private static StatefulRedisConnection<String, String> connection;

	private static RedisCommands<String, String> redis;

	private static KafkaProducer<byte[], byte[]> producer;

	@BeforeAll
	static void connect() {
		client = RedisClient.create("redis://" + servers.redis().host() + ":" + servers.redis().port());
		connection = client.connect();
		redis = connection.sync();
		producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
				servers.kafka().bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"), new ByteArraySerializer(),
				new ByteArraySerializer());
	}

	@AfterAll
	static void disconnect() {
		producer.close();
		connection.close();
		client.shutdown();
	}

	@Test
	// the try keeps Sawmill running for its body, which never calls it
	@SuppressWarnings("try")
	void threeRoutesOfDifferentTypesRunAtOnceEachWithItsOwnKeysAndDeadLetters() throws Exception {
		produce("profiles", "u1", "{\"name\":\"Ann\",\"city\":\"Oslo\",\"age\":30}");
		produce("profiles", "u1", "{\"name\":\"Ann\",\"age\":31}");
		produce("profiles", "u2", "{\"name\":\"Bob\"}");
		produce("profiles", "u2", null);
		produce("profiles", "u3", "not json");
		produce("scores", "p1", "{\"points\":10}");
		produce("scores", "p2", "{\"points\":20.5}");
		produce("scores", "p1", "{\"points\":15}");
		produce("scores", "p3", "{\"points\":5}");
		produce("scores", "p3", null);
		produce("scores", "p4", "{\"points\":\"many\"}");
		for (int i = 0; i < 250; i++) {
			produce("events", "e", "{\"kind\":\"click\",\"id\":" + i + ",\"noise\":\"x\"}");
		}
		produce("events", "e", null);

		// MAXLEN ~ trims whole stream nodes; with one entry per node the trimmed length
		// is exact
		redis.configSet("stream-node-max-entries", "1");
		Map<String, Object> properties = routes("three-routes");
		route(properties, 0, "profiles", "HASH", "profile:{@key}", "hash-update", "REPLACE", "ttl", "1h",
				"dead-letter-topic", "profiles-dlt");
		route(properties, 1, "scores", "SORTED_SET", "board:{@topic}", "score-field", "points", "member", "{@key}",
				"ttl", "1h");
		route(properties, 2, "events", "STREAM", "stream:{@topic}", "max-length", "10", "fields", "kind,id", "ttl",
				"10m");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties)) {
			awaitCommitted("three-routes", "profiles", "scores", "events");
		}

		assertThat(redis.hgetall("profile:u1")).containsExactlyInAnyOrderEntriesOf(Map.of("name", "Ann", "age", "31"));
		assertThat(redis.ttl("profile:u1")).isBetween(3000L, 3600L);
		assertThat(redis.exists("profile:u2", "{profile:u1}:sawmill-replace", "{profile:u2}:sawmill-replace")).isZero();
		assertThat(redis.zrangeWithScores("board:scores", 0, -1)).containsExactly(ScoredValue.just(15, "p1"),
				ScoredValue.just(20.5, "p2"));
		assertThat(redis.ttl("board:scores")).isBetween(3000L, 3600L);
		assertThat(redis.ttl("stream:events")).isBetween(500L, 600L);
		List<StreamMessage<String, String>> stream = redis.xrange("stream:events", Range.create("-", "+"));
		// one entry per stream node: MAXLEN ~ 10 trims exactly
		assertThat(stream).hasSize(10);
		for (int i = 0; i < stream.size(); i++) {
			assertThat(stream.get(i).getBody()).containsExactly(Map.entry("kind", "click"),
					Map.entry("id", Integer.toString(250 - stream.size() + i)));
		}
		assertDeadLetters("profiles-dlt", "u3");
		assertDeadLetters("scores.DLT", "p4");
	}

	@Test
	// the try keeps Sawmill running for its body, which never calls it
	@SuppressWarnings("try")
	void aPatternRouteReadsEveryTopicItMatchesBesideARouteThatNamesItsTopic() throws Exception {
		produce("orders-eu", "o1", "{\"total\":1}");
		produce("orders-us", "o2", "{\"total\":2}");
		produce("orders-us", "o2", "{\"total\":3}");
		produce("orders-us", "o3", "not json");
		produce("orders-eu", "o1", null);
		produce("audit", "a1", "{\"who\":\"ann\"}");
		produce("audit", "a2", "not json");

		Map<String, Object> properties = routes("pattern-routes");
		route(properties, 0, "orders", "HASH", "order:{@topic}:{@key}", "dead-letter-topic", "dlt-orders");
		properties.remove("sawmill.routes[0].topics");
		properties.put("sawmill.routes[0].topic-pattern", "orders-.*");
		route(properties, 1, "audit", "HASH", "audit:{@key}");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties)) {
			awaitCommitted("pattern-routes", "orders-eu", "orders-us", "audit");
		}

		assertThat(redis.keys("order:*")).containsExactly("order:orders-us:o2");
		assertThat(redis.hgetall("order:orders-us:o2")).containsExactlyEntriesOf(Map.of("total", "3"));
		assertThat(redis.hgetall("audit:a1")).containsExactlyEntriesOf(Map.of("who", "ann"));
		assertDeadLetters("dlt-orders", "o3");
		assertDeadLetters("audit.DLT", "a2");
	}

	@Test
	// the try keeps Sawmill running for its body, which never calls it
	@SuppressWarnings("try")
	void stringSetListAndDeleteRoutesWriteTheirTypesWithTtlsCapsAndTombstones() throws Exception {
		produce("flags", "f1", "{\"state\":\"on\"}", "ttl", "120");
		produce("flags", "f1", "{\"state\":\"off\"}", "ttl", "300");
		produce("flags", "f2", "{\"state\":\"on\"}");
		produce("flags", "f3", "{\"state\":\"on\"}");
		produce("flags", "f3", null);
		produce("flags", "f4", "{\"other\":1}");
		produce("tags", "t1", "x");
		produce("tags", "t2", "y");
		produce("tags", "t3", "z");
		produce("tags", "t2", null);
		for (int i = 1; i <= 5; i++) {
			produce("feed", "f", "{\"msg\":\"m" + i + "\"}");
		}
		produce("feed", "f", null);
		redis.set("flag:gone", "stale");
		produce("purge", "gone", "{}");
		produce("quotes", "q1", "{\"text\":\"hi\", \"by\":\"Ann\"}");

		Map<String, Object> properties = routes("four-routes");
		// flags and feed share one dead-letter topic, created once at start-up
		route(properties, 0, "flags", "STRING", "flag:{@key}", "value-field", "state", "ttl-header", "ttl", "ttl",
				"60s", "dead-letter-topic", "cache-dlt");
		route(properties, 1, "tags", "SET", "tags:{@topic}", "member", "{@key}", "value-format", "STRING", "ttl", "5m");
		route(properties, 2, "feed", "LIST", "feed:{@key}", "value-field", "msg", "list-end", "RIGHT", "max-length",
				"3", "dead-letter-topic", "cache-dlt");
		route(properties, 3, "purge", "DELETE", "flag:{@key}");
		// the whole value, as it came
		route(properties, 4, "quotes", "STRING", "quote:{@key}", "ttl", "30s");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties)) {
			awaitCommitted("four-routes", "flags", "tags", "feed", "purge", "quotes");
		}

		assertThat(redis.get("flag:f1")).isEqualTo("off");
		assertThat(redis.ttl("flag:f1")).isBetween(240L, 300L);
		assertThat(redis.get("flag:f2")).isEqualTo("on");
		assertThat(redis.ttl("flag:f2")).isBetween(1L, 60L);
		assertThat(redis.exists("flag:f3", "flag:f4", "flag:gone")).isZero();
		assertThat(redis.smembers("tags:tags")).containsExactlyInAnyOrder("t1", "t3");
		assertThat(redis.ttl("tags:tags")).isBetween(240L, 300L);
		assertThat(redis.get("quote:q1")).isEqualTo("{\"text\":\"hi\", \"by\":\"Ann\"}");
		assertThat(redis.ttl("quote:q1")).isBetween(1L, 30L);
		assertThat(redis.lrange("feed:f", 0, -1)).containsExactly("m3", "m4", "m5");
		assertThat(redis.ttl("feed:f")).isEqualTo(-1L);
		assertDeadLetters("cache-dlt", "f4");
	}

	@Test
	// the try keeps Sawmill running for its body, which never calls it
	@SuppressWarnings("try")
	void avroValuesReadWithTheConfiguredSchemaMergeIntoHashesAndNullsDeleteFields() throws Exception {
		Schema schema = new Schema.Parser()
			.parse("""
					{"type":"record","name":"Person","namespace":"example","fields":[
					 {"name":"name","type":"string"},
					 {"name":"email","type":["null","string"],"default":null},
					 {"name":"age","type":"int"},
					 {"name":"address","type":{"type":"record","name":"Address","fields":[{"name":"city","type":"string"}]}}]}""");
		produceBytes("people", "k1", avro(schema, "Ann", "ann@example.com", 30, "Oslo"));
		produceBytes("people", "k1", avro(schema, "Ann", null, 31, "Bergen"));
		produceBytes("people", "k2", new byte[] { 1, 2, 3 });

		Map<String, Object> properties = routes("avro-route");
		route(properties, 0, "people", "HASH", "person:{@key}", "value-format", "AVRO", "null-fields", "DELETE",
				"avro-schema", schema.toString());
		try (ConfigurableApplicationContext app = SawmillApp.run(properties)) {
			awaitCommitted("avro-route", "people");
		}

		assertThat(redis.hgetall("person:k1"))
			.containsExactlyInAnyOrderEntriesOf(Map.of("name", "Ann", "age", "31", "address.city", "Bergen"));
		assertThat(redis.exists("person:k2")).isZero();
		assertDeadLetters("people.DLT", "k2");
	}

	@Test
	// the try keeps Sawmill running for its body, which never calls it
	@SuppressWarnings("try")
	void hashReplaceOnRedisClusterNeverShowsAReaderAMissingKeyAndLeavesNoTemporaryKeys() throws Exception {
		int keys = 50;
		int versions = 40;
		try (RedisClusterProcess cluster = RedisClusterProcess.startNew()) {
			RedisClusterClient readerClient = RedisClusterClient
				.create(cluster.ports().stream().map(port -> RedisURI.create(cluster.host(), port)).toList());
			try (StatefulRedisClusterConnection<String, String> reader = readerClient.connect()) {
				RedisAdvancedClusterCommands<String, String> redisCluster = reader.sync();
				for (int k = 0; k < keys; k++) {
					redisCluster.hset("snapshot:s" + k, Map.of("version", "initial", "stale", "x"));
				}
				for (int v = 0; v < versions; v++) {
					for (int k = 0; k < keys; k++) {
						// every version drops the previous one's extra field: only a
						// replace removes it
						producer.send(new ProducerRecord<>("snapshots", ("s" + k).getBytes(UTF_8),
								("{\"version\":\"" + v + "\",\"extra" + v + "\":\"y\"}").getBytes(UTF_8)));
					}
				}
				producer.flush();

				Map<String, Object> properties = SawmillApp.baseProperties(servers.kafka(), cluster, "unused",
						"replace-cluster");
				properties.remove("sawmill.topics");
				properties.remove("sawmill.mapping.key-template");
				properties.remove("sawmill.mapping.ttl");
				route(properties, 0, "snapshots", "HASH", "snapshot:{@key}", "hash-update", "REPLACE");
				AtomicLong missing = new AtomicLong();
				AtomicLong reads = new AtomicLong();
				AtomicBoolean reading = new AtomicBoolean(true);
				Thread watcher = new Thread(() -> {
					while (reading.get()) {
						for (int k = 0; k < keys; k++) {
							reads.incrementAndGet();
							if (redisCluster.exists("snapshot:s" + k) == 0) {
								missing.incrementAndGet();
							}
						}
					}
				}, "replace-reader");
				watcher.start();
				try (ConfigurableApplicationContext app = SawmillApp.run(properties)) {
					awaitCommitted("replace-cluster", Map.of("snapshots", 3));
				}
				finally {
					reading.set(false);
					watcher.join(10_000);
				}

				assertThat(missing.get()).as("reads that found a key missing, of %d", reads.get()).isZero();
				for (int k = 0; k < keys; k++) {
					assertThat(redisCluster.hgetall("snapshot:s" + k)).containsExactlyInAnyOrderEntriesOf(
							Map.of("version", Integer.toString(versions - 1), "extra" + (versions - 1), "y"));
				}
				assertThat(redisCluster.dbsize()).as("no temporary key is left").isEqualTo(keys);
			}
			finally {
				readerClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	private static Map<String, Object> routes(String group) {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, "unused", group);
		properties.remove("sawmill.topics");
		properties.remove("sawmill.mapping.key-template");
		properties.remove("sawmill.mapping.ttl");
		return properties;
	}

	/**
	 * {@code sawmill.routes[index]}: name = topic, and {@code options} as name, value
	 * pairs.
	 */
	private static void route(Map<String, Object> properties, int index, String topic, String type, String keyTemplate,
			String... options) {
		String prefix = "sawmill.routes[" + index + "].";
		properties.put(prefix + "name", topic);
		properties.put(prefix + "topics", topic);
		properties.put(prefix + "type", type);
		properties.put(prefix + "key-template", keyTemplate);
		for (int i = 0; i < options.length; i += 2) {
			properties.put(prefix + options[i], options[i + 1]);
		}
	}

	private static void awaitCommitted(String group, String... topics) throws Exception {
		Map<String, Integer> partitions = new HashMap<>();
		for (String topic : topics) {
			partitions.put(topic, 1);
		}
		awaitCommitted(group, partitions);
	}

	private static void awaitCommitted(String group, Map<String, Integer> partitions) throws Exception {
		RouteAssertions.awaitCommitted(servers.kafka().bootstrapServers(), group, partitions);
	}

	private static void assertDeadLetters(String topic, String... keys) {
		RouteAssertions.assertDeadLetters(servers.kafka().bootstrapServers(), topic, keys);
	}

	private static void produce(String topic, String key, String value, String... header) {
		produceBytes(topic, key, value == null ? null : value.getBytes(UTF_8), header);
	}

	private static void produceBytes(String topic, String key, byte[] value, String... header) {
		try {
			ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, key.getBytes(UTF_8), value);
			if (header.length == 2) {
				record.headers().add(header[0], header[1].getBytes(UTF_8));
			}
			producer.send(record).get();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** A Person in Avro's binary encoding, written with Avro's own GenericDatumWriter. */
	private static byte[] avro(Schema schema, String name, String email, int age, String city) throws IOException {
		GenericRecord address = new GenericData.Record(schema.getField("address").schema());
		address.put("city", city);
		GenericRecord person = new GenericData.Record(schema);
		person.put("name", name);
		person.put("email", email);
		person.put("age", age);
		person.put("address", address);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
		new GenericDatumWriter<GenericRecord>(schema).write(person, encoder);
		encoder.flush();
		return out.toByteArray();
	}

}
