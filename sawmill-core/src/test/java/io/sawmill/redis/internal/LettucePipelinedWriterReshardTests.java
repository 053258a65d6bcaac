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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.lettuce.core.MigrateArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.testkit.RedisClusterProcess;

/**
 * The writer's cluster path while slots move between masters. The migration is done by
 * hand, slot by slot, with the raw cluster commands, so that each batch deterministically
 * meets a redirect:
 * <ul>
 * <li>MOVED: the slot has moved to another master, and the writer's client (no topology
 * refresh) still routes it to the old one;</li>
 * <li>ASK: the slot is MIGRATING on its master and IMPORTING on another, and some of its
 * keys have already been migrated.</li>
 * </ul>
 * The writer writes each master's commands to that master's channel, where Redis answers
 * a redirected command with MOVED or ASK; the writer sends those commands again through
 * Lettuce's cluster API (after a topology refresh on MOVED), which follows any further
 * redirect on the other master's connection, whose auto-flush is off like every
 * connection of the writer; the writer flushes again while it waits, so the command goes
 * out instead of waiting there until the batch times out. Every batch must succeed (a
 * timeout is a failure) and every value and TTL be right afterwards, read back with a
 * separate client whose topology is refreshed. Each scenario runs {@value #RUNS} times,
 * each on a slot of its own.
 * <p>
 * A redirected write can also be overtaken by a later write to its key that takes a
 * shorter way to the new master; the writer must then report it, so that it is written
 * again in order
 * ({@link #shouldReportAWriteOvertakenByALaterWriteToItsKeyAfterRedirectsSoItIsWrittenAgainInOrder}).
 */
class LettucePipelinedWriterReshardTests {

	private static final int RUNS = 5;

	private static final int KEYS = 50;

	/** The writer's timeout: a command still without a reply then fails the batch. */
	private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(2);

	private static RedisClusterProcess cluster;

	private static ClientResources resources;

	/**
	 * The writers' client: default options, so no periodic nor adaptive topology refresh.
	 */
	private static RedisClusterClient writerClient;

	private static RedisClusterClient readerClient;

	private static StatefulRedisClusterConnection<String, String> readerConnection;

	private static RedisAdvancedClusterCommands<String, String> reader;

	private static RedisClient nodeClient;

	private static final Map<Integer, StatefulRedisConnection<String, String>> nodes = new LinkedHashMap<>();

	private static final Map<Integer, String> nodeIds = new LinkedHashMap<>();

	/** Slots moved by earlier runs: a run picks a slot of its own. */
	private static final Set<Integer> usedSlots = new HashSet<>();

	private final List<LettucePipelinedWriter> writers = new ArrayList<>();

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterProcess.startNew();
		List<RedisURI> seeds = cluster.ports().stream().map(port -> RedisURI.create(cluster.host(), port)).toList();
		resources = DefaultClientResources.create();
		writerClient = RedisClusterClient.create(resources, seeds);
		readerClient = RedisClusterClient.create(seeds);
		readerConnection = readerClient.connect();
		reader = readerConnection.sync();
		nodeClient = RedisClient.create();
		for (int port : cluster.ports()) {
			StatefulRedisConnection<String, String> node = nodeClient.connect(RedisURI.create(cluster.host(), port));
			nodes.put(port, node);
			nodeIds.put(port, node.sync().clusterMyId());
		}
	}

	@AfterAll
	static void stopCluster() throws Exception {
		nodes.values().forEach(StatefulRedisConnection::close);
		nodes.clear();
		Teardown.close(readerConnection, readerClient, writerClient, nodeClient, resources, cluster);
	}

	@AfterEach
	void closeWriters() {
		writers.forEach(LettucePipelinedWriter::close);
	}

	@Test
	void shouldWriteABatchWhoseSlotHasMovedWhileTheTopologyIsStale() {
		List<Observation> observations = new ArrayList<>();
		for (int run = 0; run < RUNS; run++) {
			Slot slot = freshSlot("moved-" + run);
			LettucePipelinedWriter writer = connectedWriter();
			// the writer's connection routes the slot to its master, and the first batch
			// goes there
			PipelineResult before = writer.write(batch(slot.keys, "1", Duration.ofSeconds(120)));
			assertThat(before.failures()).as("first batch, run %d", run).isEmpty();
			int source = ownerOf(slot.slot);
			int target = otherThan(source);

			beginMigration(slot.slot, source, target);
			migrate(source, target, slot.keys);
			endMigration(slot.slot, target);
			assertThat(writerViewOf(slot.slot)).as("the writer's client still routes the slot to its old master")
				.isEqualTo(source);

			observations.add(observe("MOVED", run, writer, slot, source, target));
		}
		assertCorrect(observations);
	}

	@Test
	void shouldWriteABatchWhileItsSlotIsMigrating() {
		List<Observation> observations = new ArrayList<>();
		for (int run = 0; run < RUNS; run++) {
			Slot slot = freshSlot("ask-" + run);
			LettucePipelinedWriter writer = connectedWriter();
			// the first half of the keys exists before the migration; the second half is
			// new
			List<String> existing = slot.keys.subList(0, KEYS / 2);
			PipelineResult before = writer.write(batch(existing, "1", Duration.ofSeconds(120)));
			assertThat(before.failures()).as("first batch, run %d", run).isEmpty();
			int source = ownerOf(slot.slot);
			int target = otherThan(source);

			beginMigration(slot.slot, source, target);
			// half of the existing keys move (ASK for them), the other half stays on the
			// source
			List<String> moved = existing.subList(0, existing.size() / 2);
			migrate(source, target, moved);

			Observation observation = observe("ASK", run, writer, slot, source, target, () -> {
				// finish the migration before reading back
				migrate(source, target, keysInSlot(source, slot.slot));
				endMigration(slot.slot, target);
			});
			observations.add(observation);
		}
		assertCorrect(observations);
	}

	/**
	 * Two batches to a moved slot, the second sent before the first is awaited, as the
	 * listener does while behind: both go to the old master, which answers MOVED to each;
	 * the first batch's await refreshes the topology and sends its writes again, the
	 * second's sends its own after them. Both succeed, and every key ends with the second
	 * batch's value and TTL.
	 */
	@Test
	void shouldWriteTwoBatchesInFlightToAMovedSlotInOrder() {
		for (int run = 0; run < RUNS; run++) {
			Slot slot = freshSlot("in-flight-" + run);
			LettucePipelinedWriter writer = connectedWriter();
			assertThat(writer.write(batch(slot.keys, "1", Duration.ofSeconds(120))).failures()).isEmpty();
			int source = ownerOf(slot.slot);
			int target = otherThan(source);
			beginMigration(slot.slot, source, target);
			migrate(source, target, slot.keys);
			endMigration(slot.slot, target);

			RedisBatchWriter.Sent first = writer.send(batch(slot.keys, "2", Duration.ofSeconds(120)));
			RedisBatchWriter.Sent second = writer.send(batch(slot.keys, "3", Duration.ofSeconds(60)));

			assertThat(first.await().failures()).as("first batch, run %d", run).isEmpty();
			assertThat(second.await().failures()).as("second batch, run %d", run).isEmpty();
			readerClient.refreshPartitions();
			for (String key : slot.keys) {
				assertThat(reader.hget(key, "v")).as("%s, run %d", key, run).isEqualTo("3");
				assertThat(reader.ttl(key)).as("TTL of %s, run %d", key, run).isBetween(1L, 60L);
			}
		}
	}

	/**
	 * A redirected write is overtaken by the next batch's write to the same key, which a
	 * topology refresh routed straight to the slot's new master: the writer sends the
	 * redirected write again only when its batch is awaited, after the next batch went
	 * out, so Redis applies the older write last. The writer must report the overtaken
	 * write as a transient failure, so the listener writes it again with the writes after
	 * it, in order (as {@code PerRecordPipeline} and {@code PipelineBatchListener} do).
	 */
	@Test
	void shouldReportAWriteOvertakenByALaterWriteToItsKeyAfterRedirectsSoItIsWrittenAgainInOrder() {
		Slot slot = freshSlot("overtaken");
		String key = slot.keys.get(0);
		LettucePipelinedWriter writer = connectedWriter();
		assertThat(writer.write(batch(List.of(key), "1", Duration.ofSeconds(120))).failures()).isEmpty();
		int a = ownerOf(slot.slot);
		int b = otherThan(a);
		int c = cluster.ports().stream().filter(port -> port != a && port != b).findFirst().orElseThrow();
		beginMigration(slot.slot, a, b);
		migrate(a, b, List.of(key));
		endMigration(slot.slot, b);
		long movedBefore = movedReplies(a);

		// the stale topology sends the write to A, which answers MOVED; it waits there
		// for the await
		RedisBatchWriter.Sent first = writer.send(List.of(RedisWrite.hset(key, Map.of("v", "2"))));
		await().atMost(WRITE_TIMEOUT).until(() -> movedReplies(a) > movedBefore);
		// the slot moves on to C, and a topology refresh (periodic or adaptive) routes it
		// there
		beginMigration(slot.slot, b, c);
		migrate(b, c, List.of(key));
		endMigration(slot.slot, c);
		writerClient.refreshPartitions();
		assertThat(writerViewOf(slot.slot)).isEqualTo(c);
		RedisBatchWriter.Sent second = writer.send(List.of(RedisWrite.hset(key, Map.of("v", "3"))));

		PipelineResult firstResult = first.await();
		PipelineResult secondResult = second.await();

		assertThat(secondResult.failures()).isEmpty();
		assertThat(firstResult.failures()).singleElement().satisfies(failure -> {
			assertThat(failure.index()).isZero();
			assertThat(failure.cause()).isInstanceOf(KeyOrder.Overtaken.class);
			assertThat(FailureClass.of(failure.cause())).isEqualTo(FailureClass.TRANSIENT);
		});
		readerClient.refreshPartitions();
		assertThat(reader.hget(key, "v")).as("what Redis applied last").isEqualTo("2");
		// the listener's retry: the overtaken write, then the batch sent after it
		assertThat(writer.write(List.of(RedisWrite.hset(key, Map.of("v", "2")))).failures()).isEmpty();
		assertThat(writer.write(List.of(RedisWrite.hset(key, Map.of("v", "3")))).failures()).isEmpty();
		assertThat(reader.hget(key, "v")).as("the last write").isEqualTo("3");
	}

	/**
	 * How many MOVED error replies the master on {@code port} has sent
	 * ({@code INFO errorstats}).
	 */
	private static long movedReplies(int port) {
		for (String line : nodes.get(port).sync().info("errorstats").split("\r?\n")) {
			if (line.startsWith("errorstat_MOVED:count=")) {
				return Long.parseLong(line.substring("errorstat_MOVED:count=".length()).split(",")[0].trim());
			}
		}
		return 0;
	}

	private Observation observe(String scenario, int run, LettucePipelinedWriter writer, Slot slot, int source,
			int target) {
		return observe(scenario, run, writer, slot, source, target, () -> {
		});
	}

	/**
	 * Writes the second batch (HSET v=2, EXPIRE 60 s) to every key of the slot, and reads
	 * the outcome back.
	 */
	private Observation observe(String scenario, int run, LettucePipelinedWriter writer, Slot slot, int source,
			int target, Runnable beforeReadBack) {
		List<RedisWrite> writes = batch(slot.keys, "2", Duration.ofSeconds(60));
		long start = System.nanoTime();
		PipelineResult result = writer.write(writes);
		long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
		beforeReadBack.run();
		readerClient.refreshPartitions();
		int wrongValues = 0;
		int wrongTtls = 0;
		for (String key : slot.keys) {
			if (!"2".equals(reader.hget(key, "v"))) {
				wrongValues++;
			}
			long ttl = reader.ttl(key);
			if (ttl < 1 || ttl > 60) {
				wrongTtls++;
			}
		}
		Map<String, Long> causes = result.failures()
			.stream()
			.collect(Collectors.groupingBy(f -> f.cause().getClass().getSimpleName() + ": " + f.cause().getMessage(),
					LinkedHashMap::new, Collectors.counting()));
		return new Observation(scenario, run, slot.slot, source, target, writes.size(), result.succeeded(),
				result.failures().size(), causes, millis, wrongValues, wrongTtls, writerViewOf(slot.slot));
	}

	private static void assertCorrect(List<Observation> observations) {
		for (Observation observation : observations) {
			assertThat(observation.causes()).as("failures of %s", observation).isEmpty();
			assertThat(observation.succeeded()).as("%s", observation).isTrue();
			assertThat(observation.wrongValues()).as("wrong values of %s", observation).isZero();
			assertThat(observation.wrongTtls()).as("wrong TTLs of %s", observation).isZero();
		}
	}

	private LettucePipelinedWriter connectedWriter() {
		LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> writerClient,
				PipelineConfig.custom().maxCommandsPerChunk(20).timeout(WRITE_TIMEOUT).build());
		writers.add(writer);
		writer.open(1);
		writer.ping();
		return writer;
	}

	private static List<RedisWrite> batch(List<String> keys, String value, Duration ttl) {
		List<RedisWrite> writes = new ArrayList<>();
		for (String key : keys) {
			writes.add(RedisWrite.hset(key, Map.of("v", value)));
			writes.add(RedisWrite.expire(key.getBytes(StandardCharsets.UTF_8), ttl));
		}
		return writes;
	}

	/** Keys sharing one hash tag, in a slot no earlier run has moved. */
	private static Slot freshSlot(String name) {
		while (true) {
			String tag = "{reshard-" + name + "-" + UUID.randomUUID() + "}";
			int slot = Integer.parseInt(cluster.command(cluster.ports().get(0), "CLUSTER", "KEYSLOT", tag));
			if (usedSlots.add(slot)) {
				List<String> keys = new ArrayList<>();
				for (int i = 0; i < KEYS; i++) {
					keys.add(tag + ":" + i);
				}
				return new Slot(slot, keys);
			}
		}
	}

	/** The master that serves the slot, as the nodes themselves see it. */
	private static int ownerOf(int slot) {
		for (int port : cluster.ports()) {
			// the node's own line ("myself") of its CLUSTER NODES
			String nodesView = nodes.get(port).sync().clusterNodes();
			for (String line : nodesView.split("\n")) {
				if (line.contains("myself") && servesSlot(line, slot)) {
					return port;
				}
			}
		}
		throw new IllegalStateException("no master serves slot " + slot);
	}

	private static boolean servesSlot(String clusterNodesLine, int slot) {
		String[] fields = clusterNodesLine.trim().split(" ");
		for (int i = 8; i < fields.length; i++) {
			String range = fields[i];
			if (range.startsWith("[")) {
				continue;
			}
			String[] bounds = range.split("-");
			int from = Integer.parseInt(bounds[0]);
			int to = bounds.length > 1 ? Integer.parseInt(bounds[1]) : from;
			if (slot >= from && slot <= to) {
				return true;
			}
		}
		return false;
	}

	private static int otherThan(int port) {
		return cluster.ports().stream().filter(p -> p != port).findFirst().orElseThrow();
	}

	/** The port the writers' client routes the slot to (its cached topology). */
	private static int writerViewOf(int slot) {
		RedisClusterNode node = writerClient.getPartitions().getPartitionBySlot(slot);
		return node.getUri().getPort();
	}

	private static void beginMigration(int slot, int source, int target) {
		assertThat(nodes.get(target).sync().clusterSetSlotImporting(slot, nodeIds.get(source))).isEqualTo("OK");
		assertThat(nodes.get(source).sync().clusterSetSlotMigrating(slot, nodeIds.get(target))).isEqualTo("OK");
	}

	private static void migrate(int source, int target, List<String> keys) {
		if (keys.isEmpty()) {
			return;
		}
		RedisCommands<String, String> node = nodes.get(source).sync();
		assertThat(node.migrate(cluster.host(), target, 0, 5_000, MigrateArgs.Builder.keys(keys))).isEqualTo("OK");
	}

	private static List<String> keysInSlot(int port, int slot) {
		return nodes.get(port).sync().clusterGetKeysInSlot(slot, 10_000);
	}

	/**
	 * Assigns the slot to the target on every master (target first, as redis-cli does).
	 */
	private static void endMigration(int slot, int target) {
		String targetId = nodeIds.get(target);
		assertThat(nodes.get(target).sync().clusterSetSlotNode(slot, targetId)).isEqualTo("OK");
		for (int port : cluster.ports()) {
			if (port != target) {
				assertThat(nodes.get(port).sync().clusterSetSlotNode(slot, targetId)).isEqualTo("OK");
			}
		}
	}

	private record Slot(int slot, List<String> keys) {
	}

	private record Observation(String scenario, int run, int slot, int source, int target, int commands,
			boolean succeeded, int failureCount, Map<String, Long> causes, long millis, int wrongValues, int wrongTtls,
			int writerViewAfter) {
	}

}
