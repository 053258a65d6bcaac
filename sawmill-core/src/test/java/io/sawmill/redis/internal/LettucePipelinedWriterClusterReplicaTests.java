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

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.testkit.RedisClusterProcess;

/**
 * The writer with {@code sawmill.pipeline.wait-for-replicas} on Redis Cluster: a batch
 * counts as written only once a replica of each master it wrote to confirmed that
 * master's share (Redis {@code WAIT} on each master connection that carried part of it),
 * and a shortfall fails that master's share only. Against a real cluster of three masters
 * with one replica each.
 */
class LettucePipelinedWriterClusterReplicaTests {

	private static RedisClusterProcess cluster;

	private static RedisClusterClient writerClient;

	/** Reads the replicas back, each on a connection of its own. */
	private static RedisClient nodeClient;

	private final List<LettucePipelinedWriter> writers = new ArrayList<>();

	private final String prefix = "cluster-replica-test:" + UUID.randomUUID() + ":";

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterProcess.startNew(1);
		writerClient = RedisClusterClient
			.create(cluster.ports().stream().map(port -> RedisURI.create(cluster.host(), port)).toList());
		nodeClient = RedisClient.create();
	}

	@AfterAll
	static void stopCluster() throws Exception {
		Teardown.close(nodeClient, writerClient, cluster);
	}

	@AfterEach
	void closeWriters() {
		writers.forEach(LettucePipelinedWriter::close);
	}

	@Test
	void shouldReturnOnlyWhenTheReplicaOfEveryMasterHasItsShareOfTheBatch() {
		LettucePipelinedWriter writer = writer(LettucePipelinedWriterReplicaTests.waitingForOne());
		List<RedisWrite> writes = batch("a");

		PipelineResult result = writer.write(writes);

		assertThat(result.succeeded()).as("%s", result.failures()).isTrue();
		// read at once from each key's master's replica: WAIT returned only after it had
		// applied the share
		for (int master : cluster.masters()) {
			try (StatefulRedisConnection<String, String> replica = nodeClient
				.connect(RedisURI.create(cluster.host(), cluster.replicaOf(master)))) {
				RedisCommands<String, String> commands = replica.sync();
				commands.readOnly();
				List<Integer> share = shareOf(writes, master);
				assertThat(share).as("records of the batch on master %d", master).isNotEmpty();
				for (int i : share) {
					String key = prefix + "a:" + i / 2;
					assertThat(commands.hget(key, "n")).as(key).isEqualTo(Integer.toString(i / 2));
					assertThat(commands.ttl(key)).as(key).isPositive();
				}
			}
		}
	}

	@Test
	void shouldFailOnlyTheShareOfTheMasterWhoseReplicaDoesNotConfirmIt() {
		LettucePipelinedWriter writer = writer(LettucePipelinedWriterReplicaTests.waitingForOne());
		writer.write(batch("warm-up"));
		List<RedisWrite> writes = batch("short");
		int master = cluster.masters().get(0);
		int replica = cluster.replicaOf(master);

		PipelineResult result;
		cluster.pause(replica);
		try {
			result = writer.write(writes);
		}
		finally {
			cluster.resume(replica);
		}

		assertThat(result.failures()).extracting(PipelineResult.Failure::index)
			.as("the commands routed to the master on %d, and no other", master)
			.containsExactlyElementsOf(shareOf(writes, master));
		assertThat(result.failures()).allSatisfy(failure -> {
			assertThat(failure.cause()).isInstanceOf(ReplicaWait.NotConfirmed.class)
				.hasMessage("0 of 1 replicas of Redis master " + cluster.host() + ":" + master
						+ " confirmed the batch within PT0.2S (sawmill.pipeline.wait-for-replicas, replica-timeout)");
			assertThat(FailureClass.of(failure.cause())).isEqualTo(FailureClass.TRANSIENT);
		});
		// written again, once the replica is back, the share is confirmed
		List<RedisWrite> again = result.failures().stream().map(PipelineResult.Failure::write).toList();
		assertThat(writer.write(again).failures()).isEmpty();
	}

	@Test
	void shouldWaitForOneReplicaByDefaultWhenEveryMasterOfTheClusterHasOne() {
		LettucePipelinedWriter waitIfReplicated = new LettucePipelinedWriter(() -> writerClient,
				PipelineConfig.ofDefaults(), true);
		writers.add(waitIfReplicated);
		LettucePipelinedWriter configured = writer(PipelineConfig.ofDefaults());

		waitIfReplicated.open(1);
		configured.open(1);

		assertThat(waitIfReplicated.waitForReplicas()).isEqualTo(1);
		assertThat(configured.waitForReplicas()).as("0 configured, and not to be decided by the writer").isZero();
	}

	/** The indexes of the batch's commands routed to the master on {@code port}. */
	private static List<Integer> shareOf(List<RedisWrite> writes, int port) {
		return IntStream.range(0, writes.size())
			.filter(i -> writerClient.getPartitions()
				.getMasterBySlot(SlotHash.getSlot(writes.get(i).key()))
				.getUri()
				.getPort() == port)
			.boxed()
			.toList();
	}

	private LettucePipelinedWriter writer(PipelineConfig config) {
		LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> writerClient, config);
		writers.add(writer);
		return writer;
	}

	private List<RedisWrite> batch(String name) {
		return LettucePipelinedWriterReplicaTests.batch(prefix, name);
	}

}
