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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.redis.internal.RedisBatchWriter;
import io.sawmill.testkit.RedisClusterProcess;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * Sawmill against a Redis Cluster of three masters with one replica each, configured as a
 * deployment is ({@code spring.data.redis.cluster.nodes} only, {@code wait-for-replicas}
 * unset), through failovers while a backlog drains: a replica takes its master's slots
 * over because an operator asked ({@code CLUSTER FAILOVER}), because the master was
 * SIGKILLed, or because the master froze (SIGSTOP) long enough for the cluster to promote
 * its replica and then went on (SIGCONT). Every key must end with its last version and a
 * TTL, read through the cluster afterwards, every offset must be committed, and nothing
 * may be dead-lettered. The cases share one cluster and one broker, each with a topic and
 * group of its own; the master killed last is restarted as its successor's replica.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RedisClusterFailoverIT {

	private static final int PARTITIONS = 3;

	/** Six versions of each key, drained while a master fails over. */
	private static final VersionedEvents BACKLOG = new VersionedEvents(60_000, 10_000);

	/**
	 * Fails a batch stuck on a dead or frozen master soon, so that it is written again to
	 * its successor.
	 */
	private static final Duration SHORT_TIMEOUT = Duration.ofSeconds(2);

	/**
	 * How long the cluster takes to promote a replica of a master that stopped answering
	 * (node timeout 5 s).
	 */
	private static final Duration PROMOTION = Duration.ofMinutes(1);

	private static KafkaServer kafka;

	private static RedisClusterProcess cluster;

	private static RedisClusterClient readerClient;

	@BeforeAll
	static void startServers() {
		cluster = RedisClusterProcess.startNew(1);
		readerClient = RedisClusterClient
			.create(cluster.ports().stream().map(port -> RedisURI.create(cluster.host(), port)).toList());
		kafka = KafkaServer.start();
	}

	@AfterAll
	static void stopServers() {
		if (kafka != null) {
			kafka.close();
		}
		if (readerClient != null) {
			readerClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
		if (cluster != null) {
			cluster.close();
		}
	}

	/**
	 * An operator's failover: the replica waits for its master to stop taking writes and
	 * catch up, then takes over.
	 */
	@Test
	@Order(1)
	void shouldLoseNothingWhenAReplicaTakesOverItsMasterByAPlannedFailoverUnderLoad() throws Exception {
		drainThrough("cluster-failover", SHORT_TIMEOUT,
				() -> cluster.failover(cluster.replicaOf(cluster.masters().get(0))));
	}

	/**
	 * A master frozen until the cluster promoted its replica, then resumed: it answers
	 * what it had read meanwhile as a master until it learns of its successor, then drops
	 * those writes as that successor's replica. The pipeline timeout is the default, 30
	 * s, longer than the promotion takes, so batches still await those replies when they
	 * come. With {@code wait-for-replicas} those writes are never confirmed (the promoted
	 * replica no longer replicates from it), so they are written again and not committed.
	 * Run with {@code -Dsawmill-it.cluster.wait-for-replicas=0} to see what a master's
	 * acknowledgement alone loses: then this test fails with the keys that went back to
	 * an older version.
	 */
	@Test
	@Order(2)
	void shouldLoseNothingWhenAFrozenMasterIsReplacedByItsReplicaAndResumesUnderLoad() throws Exception {
		drainThrough("cluster-freeze", PipelineConfig.DEFAULT_TIMEOUT, () -> {
			int master = cluster.masters().get(0);
			int replica = cluster.replicaOf(master);
			cluster.pause(master);
			try {
				cluster.awaitMaster(replica, PROMOTION);
			}
			finally {
				cluster.resume(master);
			}
		});
	}

	/**
	 * A master SIGKILLed: the cluster promotes its replica after the node timeout. What
	 * the dead master acknowledged but had not replicated is gone with it; with
	 * {@code wait-for-replicas} none of that was committed. The killed node is restarted,
	 * empty, and rejoins as its successor's replica, so that batches are confirmed again.
	 */
	@Test
	@Order(3)
	void shouldLoseNothingWhenAMasterIsKilledUnderLoadAndItsReplicaTakesOver() throws Exception {
		drainThrough("cluster-crash", SHORT_TIMEOUT, () -> {
			int master = cluster.masters().get(0);
			int replica = cluster.replicaOf(master);
			cluster.kill(master);
			cluster.awaitMaster(replica, PROMOTION);
			cluster.restart(master);
		});
	}

	/**
	 * Unset (the default: 1 on a cluster whose every master has a replica), or what
	 * {@code -Dsawmill-it.cluster.wait-for-replicas} says.
	 */
	private static Integer waitForReplicas() {
		return Integer.getInteger("sawmill-it.cluster.wait-for-replicas");
	}

	/**
	 * Drains {@link #BACKLOG} from a topic of its own while it is produced, runs
	 * {@code fault} once every version but the last of each key is written, and checks
	 * every key's last version and TTL through the cluster afterwards, every offset
	 * committed, and no dead letter.
	 */
	private static void drainThrough(String topic, Duration pipelineTimeout, Runnable fault) throws Exception {
		kafka.createTopic(topic, PARTITIONS);
		// the writer decides at start-up whether to wait for replicas, from the topology
		// it reads then: let the previous case's failover settle first
		cluster.awaitReplicated(PROMOTION);
		Map<String, Object> properties = SawmillApp.baseProperties(kafka, cluster, topic, topic);
		// keys of its own, so that what an earlier case wrote cannot hide what this one
		// lost
		properties.put("sawmill.mapping.key-template", topic + ":" + SampleEvents.KEY_TEMPLATE);
		properties.put("sawmill.concurrency", PARTITIONS);
		properties.put("sawmill.batch-size", 500);
		properties.put("sawmill.pipeline.timeout", pipelineTimeout);
		properties.put("sawmill.pipeline.replica-timeout", "500ms");
		properties.put("sawmill.circuit-breaker.open-wait", "1s");
		properties.put("spring.data.redis.lettuce.cluster.refresh.adaptive", true);
		Integer waitForReplicas = waitForReplicas();
		if (waitForReplicas != null) {
			properties.put("sawmill.pipeline.wait-for-replicas", waitForReplicas);
		}
		String bootstrap = kafka.bootstrapServers();
		try (ConfigurableApplicationContext app = SawmillApp.run(properties); Admin admin = Kafka.admin(bootstrap)) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			int waiting = ((LettucePipelinedWriter) app.getBean(RedisBatchWriter.class)).waitForReplicas();
			assertThat(waiting).as("replicas each batch waits for")
				.isEqualTo(waitForReplicas != null ? waitForReplicas : 1);
			CompletableFuture<Void> producing = BACKLOG.produceAllInBackground(bootstrap, topic);
			// from here on each key's last version is written: a write the fault loses is
			// not overwritten later
			long lastVersions = BACKLOG.records() - BACKLOG.keys();
			await().atMost(Duration.ofMinutes(2)).until(() -> written(registry) >= lastVersions);
			long faultAt = System.nanoTime();
			fault.run();
			long faultMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - faultAt);
			producing.get(2, TimeUnit.MINUTES);

			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, topic, PARTITIONS);
			assertThat(Kafka.sum(end)).isEqualTo(BACKLOG.records());
			await().atMost(Duration.ofMinutes(2)).until(() -> Kafka.committedOffsets(admin, topic).equals(end));

			RedisVerifier.Result result = verify(topic + ":");
			System.out.printf(
					"%s (wait-for-replicas %d): fault took %d ms; produced %d, keys verified %d of %d, "
							+ "written %.0f, re-polled %.0f%n",
					topic, waiting, faultMillis, BACKLOG.records(), result.verified(), BACKLOG.keys(),
					written(registry), outcome(registry, "retried"));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
			assertThat(registry.find("sawmill.records").tag("outcome", "dead_lettered").counter()).isNull();
		}
	}

	/**
	 * Every key holds its last version and a TTL, read through the cluster as it is now.
	 */
	private static RedisVerifier.Result verify(String prefix) {
		readerClient.refreshPartitions();
		try (StatefulRedisClusterConnection<String, String> reader = readerClient.connect()) {
			return RedisVerifier.verify(reader, BACKLOG.keys(), id -> prefix + SampleEvents.key(id), BACKLOG::finalHash,
					FaultAssertions.TTL);
		}
	}

	private static double written(MeterRegistry registry) {
		return outcome(registry, "written");
	}

	private static double outcome(MeterRegistry registry, String outcome) {
		return registry.find("sawmill.records")
			.tag("outcome", outcome)
			.counters()
			.stream()
			.mapToDouble(c -> c.count())
			.sum();
	}

}
