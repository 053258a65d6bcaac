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
package io.sawmill.redis.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.TransactionalBatchWriter.Transaction;
import io.sawmill.testkit.RedisSentinelProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * The writer with {@code sawmill.pipeline.wait-for-replicas}: a batch counts as written
 * only once the replicas confirmed it (Redis {@code WAIT} after its commands). Against a
 * real master with its replica, and a real master without one.
 */
class LettucePipelinedWriterReplicaTests {

	static final int RECORDS = 1_000;

	private static RedisSentinelProcess replicated;

	private static RedisServerProcess alone;

	/** Reads the replica back. */
	private static RedisClient client;

	/**
	 * The writers' clients, connected to the master with a replica and to the one
	 * without.
	 */
	private static RedisClient toReplicated;

	private static RedisClient toAlone;

	private final List<LettucePipelinedWriter> writers = new ArrayList<>();

	private final String prefix = "replica-test:" + UUID.randomUUID() + ":";

	@BeforeAll
	static void startRedis() {
		replicated = RedisSentinelProcess.startNew();
		alone = RedisServerProcess.startNew();
		client = RedisClient.create();
		toReplicated = writerClient(replicated.master());
		toAlone = writerClient(alone);
	}

	private static RedisClient writerClient(RedisServerProcess master) {
		RedisClient writerClient = RedisClient.create(uri(master));
		// as Sawmill's auto-configuration sets the client of Boot's connection factory
		writerClient.setOptions(ClientOptions.builder().useHashIndexQueue(false).build());
		return writerClient;
	}

	@AfterAll
	static void stopRedis() throws Exception {
		Teardown.close(client, toReplicated, toAlone, alone, replicated);
	}

	@AfterEach
	void closeWriters() {
		writers.forEach(LettucePipelinedWriter::close);
	}

	@Test
	void shouldReturnOnlyWhenTheReplicaHasEveryCommandOfTheBatch() {
		LettucePipelinedWriter writer = writer(toReplicated);

		PipelineResult result = writer.write(batch("a"));

		assertThat(result.succeeded()).as("%s", result.failures()).isTrue();
		// read at once from the replica: WAIT returned only after it had applied the
		// batch
		try (StatefulRedisConnection<String, String> replica = client.connect(uri(replicated.replica()))) {
			RedisCommands<String, String> commands = replica.sync();
			for (int i = 0; i < RECORDS; i++) {
				assertThat(commands.hget(prefix + "a:" + i, "n")).isEqualTo(Integer.toString(i));
				assertThat(commands.ttl(prefix + "a:" + i)).isPositive();
			}
		}
	}

	@Test
	void shouldConfirmEachOfTwoBatchesSentBeforeEitherIsAwaited() {
		LettucePipelinedWriter writer = writer(toReplicated);

		RedisBatchWriter.Sent first = writer.send(batch("first"));
		RedisBatchWriter.Sent second = writer.send(batch("second"));

		assertThat(first.await().succeeded()).isTrue();
		assertThat(second.await().succeeded()).isTrue();
		try (StatefulRedisConnection<String, String> replica = client.connect(uri(replicated.replica()))) {
			assertThat(replica.sync().hget(prefix + "first:" + (RECORDS - 1), "n"))
				.isEqualTo(Integer.toString(RECORDS - 1));
			assertThat(replica.sync().hget(prefix + "second:" + (RECORDS - 1), "n"))
				.isEqualTo(Integer.toString(RECORDS - 1));
		}
	}

	@Test
	void shouldFailEveryCommandTransientlyWhenNoReplicaConfirmsTheBatch() {
		LettucePipelinedWriter writer = writer(toAlone);
		List<RedisWrite> writes = batch("unconfirmed");

		PipelineResult result = writer.write(writes);

		assertThat(result.failures()).hasSize(writes.size());
		assertThat(result.failures()).allSatisfy(failure -> {
			assertThat(failure.cause()).isInstanceOf(ReplicaWait.NotConfirmed.class)
				.hasMessageStartingWith("0 of 1 replicas confirmed the batch within PT0.2S "
						+ "(sawmill.pipeline.wait-for-replicas, replica-timeout); it has 0 replica(s) attached");
			assertThat(FailureClass.of(failure.cause())).isEqualTo(FailureClass.TRANSIENT);
		});
		assertThat(result.failures()).extracting(PipelineResult.Failure::index)
			.containsExactlyElementsOf(java.util.stream.IntStream.range(0, writes.size()).boxed().toList());
		assertThat(writer.replicaShortfalls().current()).extracting(ReplicaShortfall::master, ReplicaShortfall::state)
			.containsExactly(tuple("master", ReplicaShortfall.State.WAITING));
		// the master applied the commands: they are written again, not lost, and not
		// committed yet
		assertThat(alone.command("HGET", prefix + "unconfirmed:7", "n")).isEqualTo("$1");
	}

	@Test
	void shouldGoOnWithoutAReplicaPastTheGraceAndWaitForOneAgainOnceOneAttaches() {
		RedisServerProcess master = RedisServerProcess.startNew();
		RedisServerProcess replica = null;
		RedisClient masterClient = writerClient(master);
		try {
			LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> masterClient,
					PipelineConfig.from(waitingForOne()).replicaShortfallGrace(Duration.ZERO).build());
			writers.add(writer);

			assertThat(writer.write(batch("alone")).failures()).as("written past the grace, with no replica").isEmpty();
			assertThat(writer.replicaShortfalls().current()).extracting(ReplicaShortfall::state)
				.containsExactly(ReplicaShortfall.State.PROCEEDING);

			replica = RedisServerProcess.startNew("--replicaof", master.host(), Integer.toString(master.port()));
			await().atMost(Duration.ofMinutes(1)).until(() -> {
				writer.write(batch("attaching"));
				return writer.replicaShortfalls().current().isEmpty();
			});

			assertThat(writer.write(batch("confirmed")).failures()).isEmpty();
			// WAIT 1 again: the replica has the batch as soon as the write returns
			assertThat(replica.command("HGET", prefix + "confirmed:" + (RECORDS - 1), "n"))
				.isEqualTo("$" + Integer.toString(RECORDS - 1).length());
		}
		finally {
			masterClient.shutdown();
			master.close();
			if (replica != null) {
				replica.close();
			}
		}
	}

	@Test
	void shouldKeepACommandsOwnFailureWhenTheBatchIsNotConfirmedEither() {
		assertThat(alone.command("SET", prefix + "wrongtype", "a string")).isEqualTo("+OK");
		LettucePipelinedWriter writer = writer(toAlone);
		List<RedisWrite> writes = List.of(RedisWrite.hset(prefix + "fine", Map.of("n", "1")),
				RedisWrite.hset(prefix + "wrongtype", Map.of("n", "2")));

		PipelineResult result = writer.write(writes);

		assertThat(result.failures()).hasSize(2);
		assertThat(result.failures().get(0).cause()).isInstanceOf(ReplicaWait.NotConfirmed.class);
		assertThat(result.failures().get(1).cause()).hasMessageStartingWith("WRONGTYPE");
	}

	@Test
	void shouldConfirmTransactionsOnTheReplicaBeforeTheyCountAsApplied() {
		LettucePipelinedWriter writer = writer(toReplicated);

		PipelineResult result = writer.sendTransactions(List.of(counterAndWatermark())).await();

		assertThat(result.succeeded()).as("%s", result.failures()).isTrue();
		try (StatefulRedisConnection<String, String> replica = client.connect(uri(replicated.replica()))) {
			assertThat(replica.sync().mget(prefix + "n", prefix + "wm")).extracting(kv -> kv.getValue())
				.containsExactly("1", "1");
		}
	}

	@Test
	void shouldReportATransactionNoReplicaConfirmedAsNotAppliedThoughTheMasterAppliedIt() {
		LettucePipelinedWriter writer = writer(toAlone);

		PipelineResult result = writer.sendTransactions(List.of(counterAndWatermark())).await();

		// its watermark's SET failed: the listener polls the batch again and confirms it
		// before the commit
		assertThat(result.failures()).extracting(PipelineResult.Failure::index).containsExactly(0, 1);
		assertThat(result.failures().get(1).cause()).isInstanceOf(ReplicaWait.NotConfirmed.class);
		assertThat(alone.command("GET", prefix + "wm")).isEqualTo("$1");
	}

	/** A transaction of an INCR and a new watermark's SET, fenced by the watermark. */
	private Transaction counterAndWatermark() {
		byte[] watermark = RedisWrite.utf8(prefix + "wm");
		return new Transaction(watermark, 0, List.of(RedisWrite.command("INCR", RedisWrite.utf8(prefix + "n")),
				RedisWrite.command("SET", watermark, RedisWrite.utf8("1"))));
	}

	/** A writer that waits for one replica per batch, for 200 ms at most. */
	private LettucePipelinedWriter writer(RedisClient writerClient) {
		LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> writerClient, waitingForOne());
		writers.add(writer);
		return writer;
	}

	/** One replica per batch (per master's share on a cluster), for 200 ms at most. */
	static PipelineConfig waitingForOne() {
		return PipelineConfig.custom()
			.timeout(Duration.ofSeconds(10))
			.waitForReplicas(1)
			.replicaTimeout(Duration.ofMillis(200))
			.build();
	}

	private List<RedisWrite> batch(String name) {
		return batch(prefix, name);
	}

	/**
	 * An HSET and an EXPIRE per record: command {@code i} writes record {@code i / 2},
	 * key {@code prefix name:i/2}.
	 */
	static List<RedisWrite> batch(String prefix, String name) {
		List<RedisWrite> writes = new ArrayList<>(2 * RECORDS);
		for (int i = 0; i < RECORDS; i++) {
			String key = prefix + name + ":" + i;
			writes.add(RedisWrite.hset(key, Map.of("n", Integer.toString(i))));
			writes.add(RedisWrite.expire(RedisWrite.utf8(key), Duration.ofHours(1)));
		}
		return writes;
	}

	private static RedisURI uri(RedisServerProcess node) {
		return RedisURI.create(node.host(), node.port());
	}

}
