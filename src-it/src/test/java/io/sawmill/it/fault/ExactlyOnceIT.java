package io.sawmill.it.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.testkit.RedisSentinelProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * {@code sawmill.delivery=exactly-once} under the faults that repeat records. A user's mapper
 * ({@link CounterApp}, its own JVM) {@code INCR}s one counter per record key, so a record applied
 * twice shows as a counter one too high. In each case every counter must equal the number of
 * records produced for its key, every offset be committed, and nothing be dead-lettered:
 * <ol>
 * <li>the Sawmill process is SIGKILLed mid-drain (Redis behind a proxy holding each reply back
 * 100 ms, so the kill lands between transactions applied and their commit) and started again;</li>
 * <li>redis-server is SIGKILLed mid-drain and restarted from its append-only file;</li>
 * <li>a second Sawmill process joins the group mid-drain and leaves again (two rebalances);</li>
 * <li>the master of a Sentinel-managed Redis is SIGKILLed mid-drain and the Sentinel promotes its
 * replica (each batch waits for one replica, the default there);</li>
 * <li>one partition's keys are denied to the writer by an ACL (NOPERM at queue time, so its
 * transactions abort while the other partitions' apply, and batches fail and come again) until the
 * ACL is fixed.</li>
 * </ol>
 * And the same partial failure with the default at-least-once delivery does count records twice.
 */
class ExactlyOnceIT {

	private static final int PARTITIONS = 3;
	private static final int KEYS = 150;
	private static final Duration DRAIN = Duration.ofSeconds(90);

	private static RedisServerProcess redis;
	private static KafkaServer kafka;
	private static Admin admin;
	private static RedisClient client;
	private static StatefulRedisConnection<String, String> connection;

	@BeforeAll
	static void startServers() {
		// acknowledged means on disk: what Redis answered survives its SIGKILL
		redis = RedisServerProcess.startNew("--appendonly", "yes", "--appendfsync", "always");
		kafka = KafkaServer.start();
		admin = Kafka.admin(kafka.bootstrapServers());
		client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		connection = client.connect();
	}

	@AfterAll
	static void stopServers() {
		if (connection != null) {
			connection.close();
			client.shutdown();
		}
		if (admin != null) {
			admin.close();
		}
		if (kafka != null) {
			kafka.close();
		}
		if (redis != null) {
			redis.close();
		}
	}

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void shouldCountEveryRecordOnceWhenTheProcessIsKilledMidDrainAndRestarted() throws Exception {
		Scenario scenario = new Scenario("eos-kill", 12_000);
		scenario.produce(0, scenario.records);
		try (ReplyDelayProxy proxy = ReplyDelayProxy.start(redis.host(), redis.port(), Duration.ofMillis(100))) {
			Map<String, Object> properties = scenario.properties(proxy.port());
			try (SawmillProcess first = scenario.start(properties, "first")) {
				await("a quarter committed").atMost(DRAIN).pollInterval(Duration.ofMillis(20))
					.failFast("the Sawmill JVM exited", () -> !first.isAlive())
					.until(() -> FaultAssertions.committed(admin, scenario.group) >= scenario.records / 4);
				first.kill();
			}
			long appliedAtKill = scenario.applied();
			long committedAtKill = FaultAssertions.committed(admin, scenario.group);
			try (SawmillProcess second = scenario.start(properties, "second")) {
				scenario.assertCountedOnce(second);
			}
			System.out.printf("exactly-once kill: %d INCRs applied, %d offsets committed at the kill%n", appliedAtKill,
					committedAtKill);
		}
	}

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void shouldCountEveryRecordOnceWhenRedisIsKilledMidDrainAndRestartedFromItsAppendOnlyFile() throws Exception {
		Scenario scenario = new Scenario("eos-redis-kill", 20_000);
		Map<String, Object> properties = scenario.properties(redis.port());
		properties.put("sawmill.pipeline.timeout", "2s");
		properties.put("sawmill.circuit-breaker.open-wait", "1s");
		try (SawmillProcess sawmill = scenario.start(properties, "only")) {
			CompletableFuture<Void> producing = scenario.produceInBackground(4_000);
			scenario.awaitApplied(sawmill, scenario.records / 5);
			redis.kill();
			Thread.sleep(2_000); // the outage the scenario asks for, not a wait for a result
			redis.start();
			producing.get(60, TimeUnit.SECONDS);
			scenario.assertCountedOnce(sawmill);
		}
	}

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void shouldCountEveryRecordOnceWhenTheSentinelMasterIsKilledMidDrain() throws Exception {
		Scenario scenario = new Scenario("eos-sentinel", 20_000);
		try (RedisSentinelProcess sentinel = RedisSentinelProcess.startNew()) {
			Map<String, Object> properties = scenario.properties(0);
			properties.remove("spring.data.redis.host");
			properties.remove("spring.data.redis.port");
			properties.put("spring.data.redis.sentinel.master", RedisSentinelProcess.MASTER_NAME);
			properties.put("spring.data.redis.sentinel.nodes", sentinel.sentinelNodes());
			properties.put("sawmill.pipeline.timeout", "2s");
			properties.put("sawmill.pipeline.replica-timeout", "500ms");
			properties.put("sawmill.circuit-breaker.open-wait", "1s");
			try (SawmillProcess sawmill = scenario.start(properties, "only")) {
				CompletableFuture<Void> producing = scenario.produceInBackground(4_000);
				try (RedisClient before = RedisClient.create(RedisURI.create(sentinel.master().host(), sentinel.master().port()));
						StatefulRedisConnection<String, String> master = before.connect()) {
					await(scenario.records / 5 + " INCRs applied").atMost(DRAIN).pollInterval(Duration.ofMillis(20))
						.failFast("the Sawmill JVM exited", () -> !sawmill.isAlive())
						.until(() -> Arrays.stream(scenario.counters(master)).sum() >= scenario.records / 5);
				}
				// each batch waits for one replica (the default under Sentinel): what the killed master took without
				// replicating was not committed; its batches fail, and their watermarks are read again from the master
				// the Sentinel names then
				sentinel.crashMaster();
				producing.get(60, TimeUnit.SECONDS);
				RedisServerProcess now = sentinel.master();
				try (RedisClient after = RedisClient.create(RedisURI.create(now.host(), now.port()));
						StatefulRedisConnection<String, String> master = after.connect()) {
					scenario.assertCountedOnce(sawmill, master);
				}
			}
		}
	}

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void shouldCountEveryRecordOnceWhileASecondProcessJoinsAndLeavesTheGroup() throws Exception {
		Scenario scenario = new Scenario("eos-rebalance", 20_000);
		Map<String, Object> properties = scenario.properties(redis.port());
		try (SawmillProcess first = scenario.start(properties, "first")) {
			CompletableFuture<Void> producing = scenario.produceInBackground(2_500);
			scenario.awaitApplied(first, scenario.records / 5);
			try (SawmillProcess second = scenario.start(properties, "second")) {
				// two consumer threads each
				await("the second process joined").atMost(DRAIN).pollInterval(Duration.ofMillis(200))
					.failFast("the second Sawmill JVM exited", () -> !second.isAlive())
					.until(() -> ConsumerGroups.describe(admin, scenario.group).members().size() == 4);
				scenario.awaitApplied(second, scenario.records / 2);
				second.terminate();
			}
			producing.get(60, TimeUnit.SECONDS);
			scenario.assertCountedOnce(first);
		}
	}

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void shouldCountEveryRecordOnceWhenOnePartitionsTransactionsAbortUntilTheAclIsFixed() throws Exception {
		Scenario scenario = new Scenario("eos-partial", 3_000);
		try (SawmillProcess sawmill = partialFailure(scenario, "exactly-once")) {
			scenario.assertCountedOnce(sawmill);
		}
	}

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void shouldCountRecordsTwiceUnderTheSamePartialFailureWithAtLeastOnceDelivery() throws Exception {
		Scenario scenario = new Scenario("alo-partial", 3_000);
		try (SawmillProcess sawmill = partialFailure(scenario, "at-least-once")) {
			FaultAssertions.awaitAllCommitted(admin, scenario.group, scenario.topic, PARTITIONS, scenario.records, DRAIN);
			long applied = scenario.applied();
			System.out.printf("at-least-once partial failure: %d INCRs applied for %d records%n", applied, scenario.records);
			assertThat(applied).as("INCRs applied, against %d records", scenario.records).isGreaterThan(scenario.records);
		}
	}

	/**
	 * Keys of partition 2 are denied to the writer until every record of partitions 0 and 1 is
	 * written (their transactions, or with at-least-once their writes, apply while the batches
	 * holding partition 2's records fail and come again), then allowed.
	 */
	private static SawmillProcess partialFailure(Scenario scenario, String delivery) throws Exception {
		redis.command("ACL", "SETUSER", scenario.topic, "reset", "on", ">secret", "~counter:" + scenario.topic + "-p0-*",
				"~counter:" + scenario.topic + "-p1-*", "~sawmill:*", "+@all");
		Map<String, Object> properties = scenario.properties(redis.port());
		properties.put("sawmill.delivery", delivery);
		properties.put("spring.data.redis.username", scenario.topic);
		properties.put("spring.data.redis.password", "secret");
		properties.put("sawmill.circuit-breaker.enabled", false);
		// one consumer thread, so that a batch can hold records of all three partitions
		properties.put("sawmill.concurrency", 1);
		SawmillProcess sawmill = scenario.start(properties, "only");
		await("the consumer joined").atMost(DRAIN).pollInterval(Duration.ofMillis(100))
			.failFast("the Sawmill JVM exited", () -> !sawmill.isAlive())
			.ignoreExceptions()
			.until(() -> ConsumerGroups.assignedPartitions(ConsumerGroups.describe(admin, scenario.group)) == PARTITIONS);
		// to a consumer that keeps up, at a modest rate, so that each poll returns records of every
		// partition: batches mix them
		CompletableFuture<Void> producing = scenario.produceInBackground(600);
		long allowed = scenario.records * 2L / PARTITIONS;
		await("partitions 0 and 1 written").atMost(DRAIN).pollInterval(Duration.ofMillis(100))
			.failFast("the Sawmill JVM exited", () -> !sawmill.isAlive())
			.until(() -> scenario.countedKeys(0, 1) >= allowed);
		assertThat(scenario.countedKeys(2, 2)).isZero();
		assertThat(FaultAssertions.committed(admin, scenario.group)).isLessThan(scenario.records);
		redis.command("ACL", "SETUSER", scenario.topic, "allkeys");
		producing.get(60, TimeUnit.SECONDS);
		return sawmill;
	}

	/** One case's topic, group and keys: {@code <topic>-p<partition>-k<n>}, each key on its partition. */
	private static final class Scenario {

		final String topic;
		final String group;
		final int records;

		Scenario(String topic, int records) throws Exception {
			this.topic = topic;
			this.group = topic;
			this.records = records;
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
			properties.put("spring.data.redis.host", redis.host());
			properties.put("spring.data.redis.port", redisPort);
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

		private static KafkaProducer<byte[], byte[]> producer() {
			return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
					ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 5), new ByteArraySerializer(),
					new ByteArraySerializer());
		}

		/** Every counter's value, by key number; 0 where it does not exist. */
		long[] counters() {
			return counters(connection);
		}

		/** Every counter's value on the Redis {@code on} is connected to. */
		long[] counters(StatefulRedisConnection<String, String> on) {
			String[] keys = new String[KEYS];
			for (int k = 0; k < KEYS; k++) {
				keys[k] = "counter:" + key(k);
			}
			long[] values = new long[KEYS];
			List<KeyValue<String, String>> read = on.sync().mget(keys);
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

		/** Waits until Redis applied at least {@code count} INCRs, while {@code sawmill} runs. */
		void awaitApplied(SawmillProcess sawmill, long count) {
			await(count + " INCRs applied").atMost(DRAIN).pollInterval(Duration.ofMillis(20))
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
			assertCountedOnce(sawmill, connection);
		}

		/** As above, the counters read on the Redis {@code on} is connected to. */
		void assertCountedOnce(SawmillProcess sawmill, StatefulRedisConnection<String, String> on) throws Exception {
			try {
				FaultAssertions.awaitAllCommitted(admin, group, topic, PARTITIONS, records, DRAIN);
			}
			catch (AssertionError | org.awaitility.core.ConditionTimeoutException ex) {
				throw new AssertionError(ex.getMessage() + "\n--- Sawmill's log:\n" + sawmill.logTail(), ex);
			}
			long[] values = counters(on);
			List<String> wrong = new ArrayList<>();
			for (int k = 0; k < KEYS; k++) {
				if (values[k] != expected(k)) {
					wrong.add(key(k) + "=" + values[k] + " (expected " + expected(k) + ")");
				}
			}
			assertThat(wrong).as("%s: counters that differ from the records produced for their key", topic).isEmpty();
			assertThat(Kafka.sum(Kafka.endOffsets(admin, FaultAssertions.deadLetterTopic(topic), PARTITIONS)))
				.as("%s: dead letters", topic).isZero();
		}
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
