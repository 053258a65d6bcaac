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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.lettuce.core.KeyValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisStringCommands;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.testkit.RedisClusterProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * One case of {@link ExactlyOnceIT}: its topic (three partitions, with a dead-letter
 * topic), its group, its {@link CounterApp} processes and its keys,
 * {@code <topic>-p<partition>-k<n>}, each produced to its partition, so that each
 * counter's expected value is known.
 */
final class CounterScenario {

	static final int PARTITIONS = 3;

	private static final int KEYS = 150;

	/** How long a case waits for a drain, or for progress in it. */
	static final Duration DRAIN = Duration.ofSeconds(90);

	final String topic;

	final String group;

	final int records;

	private final KafkaServer kafka;

	/** Where the properties point Sawmill at: a standalone Redis or a Redis Cluster. */
	private final Object redis;

	private final Admin admin;

	private final RedisStringCommands<String, String> connection;

	/**
	 * @param redis the standalone Redis the properties point at
	 * @param connection where the counters are read by default
	 */
	CounterScenario(String topic, int records, KafkaServer kafka, RedisServerProcess redis, Admin admin,
			StatefulRedisConnection<String, String> connection) throws Exception {
		this(topic, records, kafka, (Object) redis, admin, connection.sync());
	}

	/**
	 * @param cluster the Redis Cluster the properties point at
	 * @param reads where the counters are read, through the cluster
	 */
	CounterScenario(String topic, int records, KafkaServer kafka, RedisClusterProcess cluster, Admin admin,
			RedisStringCommands<String, String> reads) throws Exception {
		this(topic, records, kafka, (Object) cluster, admin, reads);
	}

	private CounterScenario(String topic, int records, KafkaServer kafka, Object redis, Admin admin,
			RedisStringCommands<String, String> reads) throws Exception {
		this.topic = topic;
		this.group = topic;
		this.records = records;
		this.kafka = kafka;
		this.redis = redis;
		this.admin = admin;
		this.connection = reads;
		FaultAssertions.createTopics(admin, topic, PARTITIONS);
	}

	Map<String, Object> properties(int redisPort) {
		Map<String, Object> properties = new LinkedHashMap<>();
		// none of sawmill-app's configuration, which is on the tests' class path too
		properties.put("spring.config.location", "optional:classpath:/no-such-config/");
		properties.put("sawmill.topics", topic);
		properties.put("sawmill.group-id", group);
		properties.put("sawmill.delivery", "exactly-once");
		properties.put("sawmill.batch-size", 200);
		properties.put("sawmill.concurrency", 2);
		properties.put("sawmill.redelivery.initial-backoff", "50ms");
		properties.put("sawmill.redelivery.max-backoff", "500ms");
		properties.put("spring.kafka.bootstrap-servers", kafka.bootstrapServers());
		if (redis instanceof RedisClusterProcess cluster) {
			properties.put("spring.data.redis.cluster.nodes",
					String.join(",", cluster.ports().stream().map(port -> cluster.host() + ":" + port).toList()));
		}
		else {
			properties.put("spring.data.redis.host", ((RedisServerProcess) redis).host());
			properties.put("spring.data.redis.port", redisPort);
		}
		// a killed member leaves the group after 6 s instead of 45 s
		properties.put("spring.kafka.consumer.properties[session.timeout.ms]", 6000);
		properties.put("spring.kafka.consumer.properties[heartbeat.interval.ms]", 1000);
		return properties;
	}

	SawmillProcess start(Map<String, Object> properties, String name) {
		return SawmillProcess.startMain(CounterApp.class, properties,
				FaultAssertions.target("fault-logs").resolve(topic + "-" + name + ".log"));
	}

	String key(long id) {
		long k = id % KEYS;
		return topic + "-p" + k % PARTITIONS + "-k" + k;
	}

	int partition(long id) {
		return (int) (id % KEYS % PARTITIONS);
	}

	long expected(long k) {
		return records / KEYS + (k < records % KEYS ? 1 : 0);
	}

	void produce(long from, long to) {
		try (KafkaProducer<byte[], byte[]> producer = producer()) {
			for (long id = from; id < to; id++) {
				producer.send(record(id));
			}
			producer.flush();
		}
	}

	/** Every record, {@code perSecond} at most, from another thread. */
	CompletableFuture<Void> produceInBackground(int perSecond) {
		return CompletableFuture.runAsync(() -> {
			int slice = Math.max(1, perSecond / 10);
			try (KafkaProducer<byte[], byte[]> producer = producer()) {
				for (long id = 0; id < records; id++) {
					producer.send(record(id));
					if ((id + 1) % slice == 0) {
						producer.flush();
						sleep(Duration.ofMillis(100));
					}
				}
				producer.flush();
			}
		});
	}

	private ProducerRecord<byte[], byte[]> record(long id) {
		return new ProducerRecord<>(topic, partition(id), utf8(key(id)), utf8("{\"id\":" + id + "}"));
	}

	private KafkaProducer<byte[], byte[]> producer() {
		return new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(), ProducerConfig.ACKS_CONFIG,
						"all", ProducerConfig.LINGER_MS_CONFIG, 5),
				new ByteArraySerializer(), new ByteArraySerializer());
	}

	/** Every counter's value, by key number; 0 where it does not exist. */
	long[] counters() {
		return counters(connection);
	}

	/** Every counter's value on the Redis {@code on} is connected to. */
	long[] counters(StatefulRedisConnection<String, String> on) {
		return counters(on.sync());
	}

	/** Every counter's value, read through {@code on}. */
	long[] counters(RedisStringCommands<String, String> on) {
		String[] keys = new String[KEYS];
		for (int k = 0; k < KEYS; k++) {
			keys[k] = "counter:" + key(k);
		}
		long[] values = new long[KEYS];
		List<KeyValue<String, String>> read = on.mget(keys);
		for (int k = 0; k < KEYS; k++) {
			values[k] = read.get(k).hasValue() ? Long.parseLong(read.get(k).getValue()) : 0;
		}
		return values;
	}

	/** The INCRs Redis applied, all counters together. */
	long applied() {
		try {
			long sum = 0;
			for (long value : counters()) {
				sum += value;
			}
			return sum;
		}
		catch (RuntimeException ex) {
			return -1; // Redis is down right now
		}
	}

	/**
	 * Waits until Redis applied at least {@code count} INCRs, while {@code sawmill} runs.
	 */
	void awaitApplied(SawmillProcess sawmill, long count) {
		await(count + " INCRs applied").atMost(DRAIN)
			.pollInterval(Duration.ofMillis(20))
			.failFast("the Sawmill JVM exited", () -> !sawmill.isAlive())
			.until(() -> applied() >= count);
	}

	/** The INCRs applied to the keys of partitions {@code from…to}. */
	long countedKeys(int from, int to) {
		long[] values = counters();
		long sum = 0;
		for (int k = 0; k < KEYS; k++) {
			if (k % PARTITIONS >= from && k % PARTITIONS <= to) {
				sum += values[k];
			}
		}
		return sum;
	}

	void assertCountedOnce(SawmillProcess sawmill) throws Exception {
		assertCounted(sawmill, connection, 1);
	}

	/** As above, the counters read on the Redis {@code on} is connected to. */
	void assertCountedOnce(SawmillProcess sawmill, StatefulRedisConnection<String, String> on) throws Exception {
		assertCounted(sawmill, on, 1);
	}

	/**
	 * Every offset committed, every counter {@code times} the records produced for its
	 * key, nothing dead-lettered.
	 */
	void assertCounted(SawmillProcess sawmill, StatefulRedisConnection<String, String> on, int times) throws Exception {
		assertCounted(sawmill, on.sync(), times);
	}

	/** As above, the counters read through {@code on}. */
	void assertCounted(SawmillProcess sawmill, RedisStringCommands<String, String> on, int times) throws Exception {
		try {
			FaultAssertions.awaitAllCommitted(admin, group, topic, PARTITIONS, records, DRAIN);
		}
		catch (AssertionError | org.awaitility.core.ConditionTimeoutException ex) {
			throw new AssertionError(ex.getMessage() + "\n--- Sawmill's log:\n" + sawmill.logTail(), ex);
		}
		long[] values = counters(on);
		List<String> wrong = new ArrayList<>();
		for (int k = 0; k < KEYS; k++) {
			if (values[k] != times * expected(k)) {
				wrong.add(key(k) + "=" + values[k] + " (expected " + times * expected(k) + ")");
			}
		}
		assertThat(wrong).as("%s: counters that differ from the records produced for their key", topic).isEmpty();
		assertThat(Kafka.sum(Kafka.endOffsets(admin, FaultAssertions.deadLetterTopic(topic), PARTITIONS)))
			.as("%s: dead letters", topic)
			.isZero();
	}

	/**
	 * Sawmill writes and commits every record, stops, and the group's offsets are reset
	 * to the earliest, as {@code kafka-consumer-groups --reset-offsets --to-earliest}
	 * does: without metadata.
	 */
	void drainAndResetToEarliest(Map<String, Object> properties) throws Exception {
		try (SawmillProcess first = start(properties, "first")) {
			assertCountedOnce(first);
			first.terminate();
		}
		await("the group is empty").atMost(DRAIN)
			.pollInterval(Duration.ofMillis(200))
			.until(() -> ConsumerGroups.describe(admin, group).members().isEmpty());
		Map<TopicPartition, OffsetAndMetadata> earliest = new HashMap<>();
		for (int p = 0; p < PARTITIONS; p++) {
			earliest.put(new TopicPartition(topic, p), new OffsetAndMetadata(0));
		}
		admin.alterConsumerGroupOffsets(group, earliest).all().get(30, TimeUnit.SECONDS);
	}

	/**
	 * Freezes {@code frozen} (SIGSTOP) past its session timeout (6 s), until the group
	 * expelled it and {@code other}, the group's only member then, took its partitions
	 * over and applied 500 more records; then thaws it.
	 */
	void freezeUntilTakenOver(SawmillProcess frozen, SawmillProcess other) {
		frozen.freeze();
		await("the other process took every partition over").atMost(DRAIN)
			.pollInterval(Duration.ofMillis(200))
			.failFast("a Sawmill JVM exited", () -> !other.isAlive())
			.ignoreExceptions()
			.until(() -> ConsumerGroups.describe(admin, group).members().size() == 1);
		awaitApplied(other, applied() + 500);
		frozen.thaw();
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
