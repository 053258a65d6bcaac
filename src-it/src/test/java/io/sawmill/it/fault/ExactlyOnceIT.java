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
import java.util.Arrays;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.testkit.RedisSentinelProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * {@code sawmill.delivery=exactly-once} under the faults that repeat records. A user's
 * mapper ({@link CounterApp}, its own JVM) {@code INCR}s one counter per record key, so a
 * record applied twice shows as a counter one too high. In each case every counter must
 * equal the number of records produced for its key, every offset be committed, and
 * nothing be dead-lettered:
 * <ol>
 * <li>the Sawmill process is SIGKILLed mid-drain (Redis behind a proxy holding each reply
 * back 100 ms, so the kill lands between transactions applied and their commit) and
 * started again;</li>
 * <li>redis-server is SIGKILLed mid-drain and restarted from its append-only file;</li>
 * <li>a second Sawmill process joins the group mid-drain and leaves again (two
 * rebalances);</li>
 * <li>of two Sawmill processes, one is frozen (SIGSTOP) past its session timeout while
 * the other takes its partitions over, then thawed, three times: the thawed one's
 * batches, polled before the freeze, are fenced;</li>
 * <li>the master of a Sentinel-managed Redis is SIGKILLed mid-drain and the Sentinel
 * promotes its replica (each batch waits for one replica, the default there);</li>
 * <li>one partition's keys are denied to the writer by an ACL (NOPERM at queue time, so
 * its transactions abort while the other partitions' apply, and batches fail and come
 * again) until the ACL is fixed;</li>
 * <li>the group's offsets are reset to the earliest after every record was written: each
 * is written once more, or, with {@code sawmill.offset-reset=refuse}, nothing is.</li>
 * </ol>
 * And the same partial failure with the default at-least-once delivery does count records
 * twice.
 */
class ExactlyOnceIT {

	private static final int PARTITIONS = CounterScenario.PARTITIONS;

	private static final Duration DRAIN = CounterScenario.DRAIN;

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
		ServerShutdown.closeAll(admin, kafka, redis);
	}

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void shouldCountEveryRecordOnceWhenTheProcessIsKilledMidDrainAndRestarted() throws Exception {
		CounterScenario scenario = new CounterScenario("eos-kill", 12_000, kafka, redis, admin, connection);
		scenario.produce(0, scenario.records);
		try (ReplyDelayProxy proxy = ReplyDelayProxy.start(redis.host(), redis.port(), Duration.ofMillis(100))) {
			Map<String, Object> properties = scenario.properties(proxy.port());
			try (SawmillProcess first = scenario.start(properties, "first")) {
				await("a quarter committed").atMost(DRAIN)
					.pollInterval(Duration.ofMillis(20))
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
		CounterScenario scenario = new CounterScenario("eos-redis-kill", 20_000, kafka, redis, admin, connection);
		Map<String, Object> properties = scenario.properties(redis.port());
		properties.put("sawmill.pipeline.timeout", "2s");
		properties.put("sawmill.circuit-breaker.open-wait", "1s");
		try (SawmillProcess sawmill = scenario.start(properties, "only")) {
			CompletableFuture<Void> producing = scenario.produceInBackground(4_000);
			scenario.awaitApplied(sawmill, scenario.records / 5);
			redis.kill();
			// the outage the scenario asks for, not a wait for a result
			Thread.sleep(2_000);
			redis.start();
			producing.get(60, TimeUnit.SECONDS);
			scenario.assertCountedOnce(sawmill);
		}
	}

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void shouldCountEveryRecordOnceWhenTheSentinelMasterIsKilledMidDrain() throws Exception {
		CounterScenario scenario = new CounterScenario("eos-sentinel", 20_000, kafka, redis, admin, connection);
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
				try (RedisClient before = RedisClient
					.create(RedisURI.create(sentinel.master().host(), sentinel.master().port()));
						StatefulRedisConnection<String, String> master = before.connect()) {
					await(scenario.records / 5 + " INCRs applied").atMost(DRAIN)
						.pollInterval(Duration.ofMillis(20))
						.failFast("the Sawmill JVM exited", () -> !sawmill.isAlive())
						.until(() -> Arrays.stream(scenario.counters(master)).sum() >= scenario.records / 5);
				}
				// each batch waits for one replica (the default under Sentinel): what the
				// killed master took without
				// replicating was not committed; its batches fail, and their watermarks
				// are read again from the master
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
		CounterScenario scenario = new CounterScenario("eos-rebalance", 20_000, kafka, redis, admin, connection);
		Map<String, Object> properties = scenario.properties(redis.port());
		try (SawmillProcess first = scenario.start(properties, "first")) {
			CompletableFuture<Void> producing = scenario.produceInBackground(2_500);
			scenario.awaitApplied(first, scenario.records / 5);
			try (SawmillProcess second = scenario.start(properties, "second")) {
				// two consumer threads each
				await("the second process joined").atMost(DRAIN)
					.pollInterval(Duration.ofMillis(200))
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
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void shouldCountEveryRecordOnceWhenAFrozenProcessThawsAfterAnotherTookItsPartitionsOver() throws Exception {
		CounterScenario scenario = new CounterScenario("eos-zombie", 40_000, kafka, redis, admin, connection);
		try (ReplyDelayProxy proxy = ReplyDelayProxy.start(redis.host(), redis.port(), Duration.ofMillis(20))) {
			Map<String, Object> properties = scenario.properties(proxy.port());
			properties.put("sawmill.concurrency", 1);
			try (SawmillProcess first = scenario.start(properties, "first");
					SawmillProcess second = scenario.start(properties, "second")) {
				CompletableFuture<Void> producing = scenario.produceInBackground(1_000);
				SawmillProcess[] processes = { first, second };
				for (int round = 0; round < 3; round++) {
					SawmillProcess frozen = processes[round % 2];
					SawmillProcess other = processes[(round + 1) % 2];
					awaitBothConsuming(scenario, first, second);
					scenario.freezeUntilTakenOver(frozen, other);
				}
				producing.get(90, TimeUnit.SECONDS);
				scenario.assertCountedOnce(first);
				System.out.printf("exactly-once zombies: %d and %d lines of fenced records after the thaws%n",
						first.logLinesContaining("were fenced"), second.logLinesContaining("were fenced"));
			}
		}
	}

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void shouldCountEveryRecordOnceMoreAfterTheGroupIsResetToTheEarliestOffset() throws Exception {
		CounterScenario scenario = new CounterScenario("eos-reset-replay", 3_000, kafka, redis, admin, connection);
		scenario.produce(0, scenario.records);
		Map<String, Object> properties = scenario.properties(redis.port());
		scenario.drainAndResetToEarliest(properties);

		try (SawmillProcess second = scenario.start(properties, "second")) {
			scenario.assertCounted(second, connection, 2);
			assertThat(second.logLinesContaining("replayed (sawmill.offset-reset=replay)")).isEqualTo(PARTITIONS);
		}
	}

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	// the try keeps Sawmill running for its body, which only reads its log
	@SuppressWarnings("try")
	void shouldRefuseAGroupResetBelowTheWatermarksWhenConfiguredToAndWriteNothingAgain() throws Exception {
		CounterScenario scenario = new CounterScenario("eos-reset-refuse", 3_000, kafka, redis, admin, connection);
		scenario.produce(0, scenario.records);
		Map<String, Object> properties = scenario.properties(redis.port());
		scenario.drainAndResetToEarliest(properties);

		properties.put("sawmill.offset-reset", "refuse");
		try (SawmillProcess second = scenario.start(properties, "second")) {
			await("every partition refused").atMost(DRAIN)
				.pollInterval(Duration.ofMillis(200))
				.failFast("the Sawmill JVM exited", () -> !second.isAlive())
				.until(() -> second.logLinesContaining("refused (sawmill.offset-reset=refuse). Reset") == PARTITIONS);
			assertThat(scenario.applied()).isEqualTo(scenario.records);
			assertThat(FaultAssertions.committed(admin, scenario.group)).isZero();
		}
	}

	private static void awaitBothConsuming(CounterScenario scenario, SawmillProcess first, SawmillProcess second) {
		await("both processes consume").atMost(DRAIN)
			.pollInterval(Duration.ofMillis(200))
			.failFast("a Sawmill JVM exited", () -> !first.isAlive() || !second.isAlive())
			.ignoreExceptions()
			.until(() -> ConsumerGroups.describe(admin, scenario.group).members().size() == 2
					&& ConsumerGroups.assignedPartitions(ConsumerGroups.describe(admin, scenario.group)) == PARTITIONS);
		scenario.awaitApplied(first, scenario.applied() + 300);
	}

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void shouldCountEveryRecordOnceWhenOnePartitionsTransactionsAbortUntilTheAclIsFixed() throws Exception {
		CounterScenario scenario = new CounterScenario("eos-partial", 3_000, kafka, redis, admin, connection);
		try (SawmillProcess sawmill = partialFailure(scenario, "exactly-once")) {
			scenario.assertCountedOnce(sawmill);
		}
	}

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	// the try keeps Sawmill running for its body, which never calls it
	@SuppressWarnings("try")
	void shouldCountRecordsTwiceUnderTheSamePartialFailureWithAtLeastOnceDelivery() throws Exception {
		CounterScenario scenario = new CounterScenario("alo-partial", 3_000, kafka, redis, admin, connection);
		try (SawmillProcess sawmill = partialFailure(scenario, "at-least-once")) {
			FaultAssertions.awaitAllCommitted(admin, scenario.group, scenario.topic, PARTITIONS, scenario.records,
					DRAIN);
			long applied = scenario.applied();
			System.out.printf("at-least-once partial failure: %d INCRs applied for %d records%n", applied,
					scenario.records);
			assertThat(applied).as("INCRs applied, against %d records", scenario.records)
				.isGreaterThan(scenario.records);
		}
	}

	/**
	 * Keys of partition 2 are denied to the writer until every record of partitions 0 and
	 * 1 is written (their transactions, or with at-least-once their writes, apply while
	 * the batches holding partition 2's records fail and come again), then allowed.
	 */
	private static SawmillProcess partialFailure(CounterScenario scenario, String delivery) throws Exception {
		redis.command("ACL", "SETUSER", scenario.topic, "reset", "on", ">secret",
				"~counter:" + scenario.topic + "-p0-*", "~counter:" + scenario.topic + "-p1-*", "~sawmill:*", "+@all");
		Map<String, Object> properties = scenario.properties(redis.port());
		properties.put("sawmill.delivery", delivery);
		properties.put("spring.data.redis.username", scenario.topic);
		properties.put("spring.data.redis.password", "secret");
		properties.put("sawmill.circuit-breaker.enabled", false);
		// one consumer thread, so that a batch can hold records of all three partitions
		properties.put("sawmill.concurrency", 1);
		SawmillProcess sawmill = scenario.start(properties, "only");
		await("the consumer joined").atMost(DRAIN)
			.pollInterval(Duration.ofMillis(100))
			.failFast("the Sawmill JVM exited", () -> !sawmill.isAlive())
			.ignoreExceptions()
			.until(() -> ConsumerGroups
				.assignedPartitions(ConsumerGroups.describe(admin, scenario.group)) == PARTITIONS);
		// to a consumer that keeps up, at a modest rate, so that each poll returns
		// records of every partition: batches mix them
		CompletableFuture<Void> producing = scenario.produceInBackground(600);
		long allowed = scenario.records * 2L / PARTITIONS;
		await("partitions 0 and 1 written").atMost(DRAIN)
			.pollInterval(Duration.ofMillis(100))
			.failFast("the Sawmill JVM exited", () -> !sawmill.isAlive())
			.until(() -> scenario.countedKeys(0, 1) >= allowed);
		assertThat(scenario.countedKeys(2, 2)).isZero();
		assertThat(FaultAssertions.committed(admin, scenario.group)).isLessThan(scenario.records);
		redis.command("ACL", "SETUSER", scenario.topic, "allkeys");
		producing.get(60, TimeUnit.SECONDS);
		return sawmill;
	}

}
