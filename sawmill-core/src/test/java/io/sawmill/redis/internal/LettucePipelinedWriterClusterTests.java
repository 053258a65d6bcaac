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
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.testkit.RedisClusterProcess;

/**
 * The writer's cluster path (commands queued through Lettuce's cluster API, routed per
 * slot, one flush per chunk) against a real Redis Cluster of three masters. Outcomes are
 * read back with a separate cluster connection, and per node with a plain connection to
 * each master.
 * <p>
 * Lettuce connects a cluster connection to a master on the first command routed to it,
 * and would write the commands queued meanwhile from the connect's callback, out of order
 * and possibly after the chunk's flush; the writer connects every master first
 * ({@link #shouldWriteEveryCommandOfTheFirstBatchOnAFreshClusterConnectionInListOrder}).
 */
class LettucePipelinedWriterClusterTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static RedisClusterProcess cluster;

	private static ClientResources resources;

	private static RedisClusterClient writerClient;

	private static RedisClusterClient readerClient;

	private static StatefulRedisClusterConnection<String, String> readerConnection;

	private static RedisAdvancedClusterCommands<String, String> reader;

	private static RedisAdvancedClusterAsyncCommands<String, String> asyncReader;

	private static RedisClient nodeClient;

	private final List<LettucePipelinedWriter> writers = new ArrayList<>();

	private String prefix;

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterProcess.startNew();
		List<RedisURI> seeds = cluster.ports().stream().map(port -> RedisURI.create(cluster.host(), port)).toList();
		resources = DefaultClientResources.create();
		writerClient = RedisClusterClient.create(resources, seeds);
		readerClient = RedisClusterClient.create(seeds);
		readerConnection = readerClient.connect();
		reader = readerConnection.sync();
		asyncReader = readerConnection.async();
		nodeClient = RedisClient.create();
	}

	@AfterAll
	static void stopCluster() throws Exception {
		Teardown.close(readerConnection, readerClient, writerClient, nodeClient, resources, cluster);
	}

	@BeforeEach
	void uniquePrefix() {
		// No hash tag: the keys of a test spread over every shard.
		prefix = "sawmill-cluster-test:" + UUID.randomUUID() + ":";
	}

	@AfterEach
	void closeWriters() {
		writers.forEach(LettucePipelinedWriter::close);
	}

	/**
	 * A writer whose connection for this thread is open, connected to every master, and
	 * answered a PING.
	 */
	private LettucePipelinedWriter connectedWriter(int maxCommandsPerChunk) {
		return connectedWriter(maxCommandsPerChunk, TIMEOUT);
	}

	private LettucePipelinedWriter connectedWriter(int maxCommandsPerChunk, Duration timeout) {
		LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> writerClient,
				PipelineConfig.custom().maxCommandsPerChunk(maxCommandsPerChunk).timeout(timeout).build());
		writers.add(writer);
		writer.open(1);
		writer.ping();
		return writer;
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private String key(int i) {
		return prefix + i;
	}

	private List<String> keys(int count) {
		List<String> keys = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			keys.add(key(i));
		}
		return keys;
	}

	private static <T> List<T> values(List<RedisFuture<T>> futures) {
		List<T> values = new ArrayList<>(futures.size());
		for (RedisFuture<T> future : futures) {
			try {
				values.add(future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
			}
			catch (Exception ex) {
				throw new IllegalStateException("reading back from the cluster failed", ex);
			}
		}
		return values;
	}

	/** Every hash, read back with one pipelined round of HGETALLs. */
	private static Map<String, Map<String, String>> hashes(List<String> keys) {
		List<Map<String, String>> values = values(keys.stream().map(asyncReader::hgetall).toList());
		Map<String, Map<String, String>> hashes = new LinkedHashMap<>();
		for (int i = 0; i < keys.size(); i++) {
			hashes.put(keys.get(i), values.get(i));
		}
		return hashes;
	}

	/** How many keys starting with the test's prefix each master holds, by port. */
	private Map<Integer, Integer> keysPerMaster() {
		Map<Integer, Integer> counts = new LinkedHashMap<>();
		for (int port : cluster.ports()) {
			try (StatefulRedisConnection<String, String> node = nodeClient
				.connect(RedisURI.create(cluster.host(), port))) {
				counts.put(port, node.sync().keys(prefix + "*").size());
			}
		}
		return counts;
	}

	@Test
	void shouldNotWaitForReplicasByDefaultOnAClusterWhoseMastersHaveNone() {
		LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> writerClient, PipelineConfig.ofDefaults(),
				true);
		writers.add(writer);

		writer.open(1);

		assertThat(writer.waitForReplicas()).as("WAIT 1 could never be confirmed here").isZero();
	}

	/**
	 * The writer writes each master's share of a chunk to the channel of that master's
	 * connection; if a Lettuce upgrade hides it, every command would go through Lettuce's
	 * API (slower, never wrong), and this test fails so that the upgrade is noticed.
	 */
	@Test
	void shouldReachTheChannelOfEveryMastersConnection() {
		try (ClusterConnection connection = ClusterConnection.open(writerClient,
				SendPaths.of(PipelineConfig.ofDefaults()))) {
			List<RedisClusterNode> masters = connection.masters();
			assertThat(masters).hasSize(3);
			assertThat(masters)
				.allSatisfy(master -> assertThat(connection.masterChannel(master)).as("%s", master.getUri())
					.isNotNull()
					.satisfies(channel -> assertThat(channel.isActive()).isTrue()));
		}
	}

	@Test
	void shouldWriteHashesAndExpiriesOfManyKeysToEveryMaster() {
		// the whole batch in one chunk
		LettucePipelinedWriter writer = connectedWriter(6_000);
		List<String> keys = keys(3_000);
		List<RedisWrite> writes = new ArrayList<>();
		for (int i = 0; i < keys.size(); i++) {
			writes.add(RedisWrite.hset(keys.get(i), Map.of("n", Integer.toString(i), "kind", "cluster")));
			writes.add(RedisWrite.expire(utf8(keys.get(i)), Duration.ofSeconds(120)));
		}

		PipelineResult result = writer.write(writes);

		assertThat(result.failures()).isEmpty();
		assertThat(result.succeeded()).isTrue();
		assertThat(result.commands()).isEqualTo(6_000);
		assertThat(result.chunks()).isEqualTo(1);
		Map<String, Map<String, String>> hashes = hashes(keys);
		for (int i = 0; i < keys.size(); i++) {
			assertThat(hashes.get(keys.get(i))).as(keys.get(i))
				.containsOnly(Map.entry("n", Integer.toString(i)), Map.entry("kind", "cluster"));
		}
		assertThat(values(keys.stream().map(asyncReader::ttl).toList()))
			.allSatisfy(ttl -> assertThat(ttl).isBetween(1L, 120L));
		Map<Integer, Integer> perMaster = keysPerMaster();
		assertThat(perMaster).hasSize(3)
			.allSatisfy((port, count) -> assertThat(count).as("keys on " + port).isPositive());
		assertThat(perMaster.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(3_000);
	}

	@Test
	void shouldApplyWritesToTheSameKeyInListOrder() {
		LettucePipelinedWriter writer = connectedWriter(500);
		List<String> keys = keys(300);
		List<RedisWrite> writes = new ArrayList<>();
		// Round by round, so that the writes to one key are far apart in the list and in
		// different chunks.
		keys.forEach(key -> writes.add(RedisWrite.hset(key, Map.of("f", "1"))));
		keys.forEach(key -> writes.add(RedisWrite.hset(key, Map.of("f", "2"))));
		keys.forEach(key -> writes.add(RedisWrite.hset(key, Map.of("f", "3"))));
		keys.forEach(key -> writes.add(RedisWrite.del(utf8(key))));
		keys.forEach(key -> writes.add(RedisWrite.hset(key, Map.of("g", "4"))));
		keys.forEach(key -> writes.add(RedisWrite.hset(key, Map.of("f", "5"))));

		PipelineResult result = writer.write(writes);

		assertThat(result.failures()).isEmpty();
		assertThat(result.chunks()).isEqualTo(4);
		assertThat(hashes(keys))
			.allSatisfy((key, hash) -> assertThat(hash).as(key).containsOnly(Map.entry("g", "4"), Map.entry("f", "5")));
	}

	@Test
	void shouldFlushEachChunkAndWriteEveryKey() {
		LettucePipelinedWriter writer = connectedWriter(100);
		List<String> keys = keys(1_000);

		PipelineResult result = writer
			.write(keys.stream().map(key -> (RedisWrite) RedisWrite.hset(key, Map.of("k", key))).toList());

		assertThat(result.failures()).isEmpty();
		assertThat(result.commands()).isEqualTo(1_000);
		assertThat(result.chunks()).isEqualTo(10);
		assertThat(reader.exists(keys.toArray(String[]::new))).isEqualTo(1_000);
		assertThat(hashes(keys)).allSatisfy((key, hash) -> assertThat(hash).containsOnly(Map.entry("k", key)));
	}

	@Test
	void shouldApplyTwoBatchesSentBeforeEitherIsAwaitedInOrderAndTimeEachToItsLastReply() throws Exception {
		LettucePipelinedWriter writer = connectedWriter(1_000);
		List<String> keys = keys(1_000);
		List<RedisWrite> first = keys.stream()
			.map(key -> (RedisWrite) RedisWrite.hset(key, Map.of("v", "first", "a", "1")))
			.toList();
		List<RedisWrite> second = keys.stream()
			.map(key -> (RedisWrite) RedisWrite.hset(key, Map.of("v", "second")))
			.toList();
		long beforeSend = System.nanoTime();

		RedisBatchWriter.Sent sentFirst = writer.send(first);
		RedisBatchWriter.Sent sentSecond = writer.send(second);
		// Each master applies and answers its commands in the order they were sent, so
		// once every key holds the second batch's value, the first batch's replies have
		// left Redis; they reach the writer on loopback well within the pause.
		await().atMost(TIMEOUT)
			.untilAsserted(() -> assertThat(hashes(keys))
				.allSatisfy((key, hash) -> assertThat(hash).containsEntry("v", "second")));
		Thread.sleep(50);
		long beforeAwait = System.nanoTime();
		PipelineResult firstResult = sentFirst.await();
		PipelineResult secondResult = sentSecond.await();
		long afterAwait = System.nanoTime();

		assertThat(firstResult.failures()).isEmpty();
		assertThat(secondResult.failures()).isEmpty();
		assertThat(firstResult.commands()).isEqualTo(1_000);
		assertThat(secondResult.commands()).isEqualTo(1_000);
		assertThat(hashes(keys)).allSatisfy(
				(key, hash) -> assertThat(hash).as(key).containsOnly(Map.entry("v", "second"), Map.entry("a", "1")));
		assertThat(sentFirst.lastReplyNanos()).isBetween(beforeSend, beforeAwait);
		// The second batch has commands on every node the first has, each sent after the
		// first's.
		assertThat(sentSecond.lastReplyNanos()).isBetween(sentFirst.lastReplyNanos(), afterAwait);
	}

	@Test
	void shouldReportAnErrorReplyAtItsIndexWhileTheOtherCommandsSucceed() {
		reader.set(prefix + "string", "not a hash");
		LettucePipelinedWriter writer = connectedWriter(1_000);
		RedisWrite wrongType = RedisWrite.hset(prefix + "string", Map.of("f", "v"));

		PipelineResult result = writer.write(List.of(RedisWrite.hset(prefix + "a", Map.of("f", "1")),
				RedisWrite.command("SADD", utf8(prefix + "set"), utf8("m")), wrongType,
				RedisWrite.hset(prefix + "b", Map.of("f", "2")),
				RedisWrite.expire(utf8(prefix + "b"), Duration.ofSeconds(60))));

		assertThat(result.succeeded()).isFalse();
		assertThat(result.commands()).isEqualTo(5);
		assertThat(result.failures()).singleElement().satisfies(failure -> {
			assertThat(failure.index()).isEqualTo(2);
			assertThat(failure.write()).isSameAs(wrongType);
			assertThat(failure.cause()).isInstanceOf(RedisCommandExecutionException.class)
				.hasMessageContaining("WRONGTYPE");
		});
		assertThat(reader.hget(prefix + "a", "f")).isEqualTo("1");
		assertThat(reader.sismember(prefix + "set", "m")).isTrue();
		assertThat(reader.hget(prefix + "b", "f")).isEqualTo("2");
		assertThat(reader.ttl(prefix + "b")).isBetween(1L, 60L);
		assertThat(reader.get(prefix + "string")).isEqualTo("not a hash");
		// an error reply leaves the connection usable
		assertThat(writer.write(List.of(RedisWrite.hset(prefix + "c", Map.of("f", "3")))).failures()).isEmpty();
		assertThat(reader.hget(prefix + "c", "f")).isEqualTo("3");
	}

	@Test
	void shouldWriteEveryCommandOfTheFirstBatchOnAFreshClusterConnectionInListOrder() {
		// Each attempt is the first batch of a new connection, as after start-up or after
		// a failed batch.
		for (int attempt = 0; attempt < 20; attempt++) {
			LettucePipelinedWriter writer = connectedWriter(100, Duration.ofSeconds(2));
			List<String> keys = new ArrayList<>();
			List<RedisWrite> writes = new ArrayList<>();
			for (int i = 0; i < 300; i++) {
				String key = prefix + attempt + ":" + i;
				keys.add(key);
				writes.add(RedisWrite.hset(key, Map.of("n", Integer.toString(i))));
				writes.add(RedisWrite.expire(utf8(key), Duration.ofSeconds(120)));
			}

			PipelineResult result = writer.write(writes);
			writer.close();

			assertThat(result.failures()).as("failures of attempt %d", attempt).isEmpty();
			assertThat(values(keys.stream().map(asyncReader::ttl).toList())).as("TTLs of attempt %d", attempt)
				.allSatisfy(ttl -> assertThat(ttl).isBetween(1L, 120L));
		}
	}

}
