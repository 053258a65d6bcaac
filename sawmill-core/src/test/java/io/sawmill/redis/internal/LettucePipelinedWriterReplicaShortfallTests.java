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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.ReplicaShortfallPolicy;
import io.sawmill.testkit.RedisClusterProcess;

/**
 * The writer with {@code wait-for-replicas: 1} on a Redis Cluster master whose replica is
 * gone (SIGKILLed, as a promoted master has none): its share is refused during
 * {@code replica-shortfall-grace}, then written with the replicas attached or still
 * refused, as {@code replica-shortfall} says, and the shortfall clears as soon as the
 * replica is back. Against a real cluster of three masters with one replica each.
 */
class LettucePipelinedWriterReplicaShortfallTests {

	private static final Duration REPLICATED = Duration.ofMinutes(1);

	private static RedisClusterProcess cluster;

	private static RedisClusterClient writerClient;

	private final List<LettucePipelinedWriter> writers = new ArrayList<>();

	private final String prefix = "shortfall-test:" + UUID.randomUUID() + ":";

	private int master;

	private int replica;

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterProcess.startNew(1);
		writerClient = RedisClusterClient
			.create(cluster.ports().stream().map(port -> RedisURI.create(cluster.host(), port)).toList());
	}

	@AfterAll
	static void stopCluster() throws Exception {
		Teardown.close(writerClient, cluster);
	}

	@BeforeEach
	void killAReplica() {
		cluster.awaitReplicated(REPLICATED);
		master = cluster.masters().get(0);
		replica = cluster.replicaOf(master);
		cluster.kill(replica);
	}

	@AfterEach
	void restoreTheReplica() {
		writers.forEach(LettucePipelinedWriter::close);
		restartReplicaIfDead();
	}

	@Test
	void shouldWriteWithTheReplicasAttachedOncePastTheGraceAndWaitForOneAgainWhenItIsBack() {
		LettucePipelinedWriter writer = writer(ReplicaShortfallPolicy.PROCEED, Duration.ZERO);

		PipelineResult result = writer.write(batch("short"));

		assertThat(result.failures()).as("written with no replica on %d", master).isEmpty();
		assertThat(writer.replicaShortfalls().current()).containsExactly(new ReplicaShortfall(address(master), 0, 1,
				writer.replicaShortfalls().current().get(0).since(), ReplicaShortfall.State.PROCEEDING));

		restartReplicaIfDead();

		// each batch asks the short master how many replicas it has, and waits for 1
		// again once it has
		await().atMost(REPLICATED).until(() -> {
			writer.write(batch("back"));
			return writer.replicaShortfalls().current().isEmpty();
		});
		assertThat(writer.write(batch("confirmed")).failures()).isEmpty();
	}

	@Test
	void shouldRefuseTheShareOfAMasterShortOfReplicasDuringTheGrace() {
		LettucePipelinedWriter writer = writer(ReplicaShortfallPolicy.PROCEED, Duration.ofHours(1));

		PipelineResult result = writer.write(batch("grace"));

		assertThat(result.failures()).isNotEmpty()
			.allSatisfy(failure -> assertThat(failure.cause()).isInstanceOf(ReplicaWait.NotConfirmed.class)
				.hasMessageStartingWith("0 of 1 replicas of Redis master " + address(master))
				.hasMessageContaining("it has 0 replica(s) attached")
				.hasMessageContaining("refused for PT1H (sawmill.pipeline.replica-shortfall-grace), then written "
						+ "with the replicas attached (sawmill.pipeline.replica-shortfall=proceed)"));
		assertThat(writer.replicaShortfalls().current()).extracting(ReplicaShortfall::state)
			.containsExactly(ReplicaShortfall.State.WAITING);
	}

	@Test
	void shouldKeepRefusingAMasterShortOfReplicasWithRefuseUntilItsReplicaIsBack() {
		LettucePipelinedWriter writer = writer(ReplicaShortfallPolicy.REFUSE, Duration.ZERO);

		PipelineResult refused = writer.write(batch("refused"));

		assertThat(refused.failures()).isNotEmpty()
			.allSatisfy(failure -> assertThat(failure.cause())
				.hasMessageEndingWith("refused until a replica attaches (sawmill.pipeline.replica-shortfall=refuse)"));
		assertThat(writer.replicaShortfalls().current()).extracting(ReplicaShortfall::state)
			.containsExactly(ReplicaShortfall.State.REFUSING);
		List<RedisWrite> again = refused.failures().stream().map(PipelineResult.Failure::write).toList();

		restartReplicaIfDead();

		await().atMost(REPLICATED).until(() -> writer.write(again).succeeded());
		assertThat(writer.replicaShortfalls().current()).isEmpty();
	}

	private void restartReplicaIfDead() {
		try {
			cluster.command(replica, "PING");
		}
		catch (IllegalStateException dead) {
			cluster.restart(replica);
		}
	}

	private String address(int port) {
		return cluster.host() + ":" + port;
	}

	private LettucePipelinedWriter writer(ReplicaShortfallPolicy policy, Duration grace) {
		LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> writerClient,
				PipelineConfig.from(LettucePipelinedWriterReplicaTests.waitingForOne())
					.replicaShortfall(policy)
					.replicaShortfallGrace(grace)
					.build());
		writers.add(writer);
		return writer;
	}

	private List<RedisWrite> batch(String name) {
		return LettucePipelinedWriterReplicaTests.batch(prefix, name);
	}

}
