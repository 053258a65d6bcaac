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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.it.support.Scrape;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.redis.internal.RedisBatchWriter;
import io.sawmill.redis.internal.ReplicaShortfall;
import io.sawmill.testkit.RedisClusterProcess;
import io.sawmill.testkit.RedisSentinelProcess;
import io.sawmill.testkit.RedisServerProcess;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * Sawmill against a Redis Cluster of three masters with one replica each and
 * {@code sawmill.pipeline.wait-for-replicas: 1}, with a master SIGKILLed mid-drain: its
 * replica is promoted and has no replica of its own. With {@code replica-shortfall:
 * proceed} (the default) and the node never coming back, the backlog drains once
 * {@code replica-shortfall-grace} has passed, every key with its last version; when the
 * node does come back, as the new master's replica, the shortfall clears and batches wait
 * for it again. With {@code refuse}, nothing drains past the promoted master until the
 * node is back, then everything does. Either way the shortfall is in the metric,
 * {@code sawmillRedis} health and {@code GET /actuator/sawmill/replicas}. The same on a
 * Sentinel-managed master whose only replica is promoted. Each case has servers, a topic
 * and a group of its own.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ReplicaShortfallIT {

	private static final int PARTITIONS = 3;

	/** Six versions of each key. */
	private static final VersionedEvents BACKLOG = new VersionedEvents(60_000, 10_000);

	/**
	 * Longer than the test cluster's cluster-node-timeout (5 s), as the docs ask.
	 */
	private static final Duration GRACE = Duration.ofSeconds(10);

	/** How long the cluster takes to promote the replica of a killed master. */
	private static final Duration PROMOTION = Duration.ofMinutes(1);

	/** Generous: the host's two cores are shared with other builds. */
	private static final Duration DRAIN = Duration.ofMinutes(2);

	private static KafkaServer kafka;

	private RedisClusterProcess cluster;

	private RedisClusterClient readerClient;

	private RedisSentinelProcess sentinel;

	/** When {@link #killMidDrain} killed the master ({@link System#nanoTime()}). */
	private long killedAt;

	@BeforeAll
	static void startKafka() {
		kafka = KafkaServer.start();
	}

	@AfterAll
	static void stopKafka() {
		if (kafka != null) {
			kafka.close();
		}
	}

	@AfterEach
	void stopCluster() {
		if (readerClient != null) {
			readerClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
		if (cluster != null) {
			cluster.close();
		}
		if (sentinel != null) {
			sentinel.close();
		}
	}

	@Test
	void shouldDrainAfterTheGraceWhenAKilledMasterNeverComesBackAndWaitForItsReplicaAgainOnceItDoes() throws Exception {
		startCluster();
		String topic = "shortfall-proceed";
		// the first four versions of each key go in before and through the failover, the
		// last two once the killed node is back
		VersionedEvents beforeReturn = new VersionedEvents(40_000, BACKLOG.keys());
		try (ConfigurableApplicationContext app = start(topic, "proceed"); Admin admin = Kafka.admin(bootstrap())) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			LettucePipelinedWriter writer = (LettucePipelinedWriter) app.getBean(RedisBatchWriter.class);
			CompletableFuture<Void> producing = CompletableFuture
				.runAsync(() -> beforeReturn.produce(bootstrap(), topic, 0, beforeReturn.records()));
			int master = cluster.masters().get(0);
			int promoted = killMidDrain(registry, master);
			producing.get(2, TimeUnit.MINUTES);

			awaitShortfall(writer, address(promoted), ReplicaShortfall.State.PROCEEDING);
			assertThat(gauge(registry, "proceeding")).isEqualTo(1);
			assertThat(Scrape.get(port(app), "/actuator/sawmill/replicas")).contains("\"policy\":\"proceed\"")
				.contains("\"master\":\"" + address(promoted) + "\"")
				.contains("\"state\":\"proceeding\"");
			assertThat(Scrape.get(port(app), "/actuator/health/sawmillRedis")).contains("replicaShortfalls")
				.contains(address(promoted));
			awaitCommitted(admin, topic, beforeReturn.records());
			long drained = System.nanoTime();
			assertVerified(beforeReturn, topic);

			cluster.restart(master);
			cluster.awaitReplicated(PROMOTION);
			long synced = System.nanoTime();

			// the first batch that writes to the promoted master after its replica
			// synchronised clears the shortfall, and from then on batches wait for 1
			// again
			CompletableFuture<Void> rest = CompletableFuture
				.runAsync(() -> BACKLOG.produce(bootstrap(), topic, beforeReturn.records(), BACKLOG.records()));
			await().atMost(DRAIN).until(() -> writer.replicaShortfalls().current().isEmpty());
			long cleared = System.nanoTime();
			rest.get(2, TimeUnit.MINUTES);
			awaitCommitted(admin, topic, BACKLOG.records());
			assertVerified(BACKLOG, topic);
			System.out.printf(
					"shortfall-proceed (grace %s): drained %d ms after the kill; shortfall cleared %d ms "
							+ "after the replica synchronised; keys verified %d%n",
					GRACE, millis(killedAt, drained), millis(synced, cleared), BACKLOG.keys());
			assertThat(writer.replicaShortfalls().current()).isEmpty();
			assertThat(gauge(registry, "proceeding")).isZero();
			assertThat(registry.find("sawmill.records").tag("outcome", "dead_lettered").counter()).isNull();
		}
	}

	@Test
	void shouldKeepRefusingUntilTheKilledMasterComesBackAsAReplicaWithRefuse() throws Exception {
		startCluster();
		String topic = "shortfall-refuse";
		try (ConfigurableApplicationContext app = start(topic, "refuse"); Admin admin = Kafka.admin(bootstrap())) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			LettucePipelinedWriter writer = (LettucePipelinedWriter) app.getBean(RedisBatchWriter.class);
			CompletableFuture<Void> producing = BACKLOG.produceAllInBackground(bootstrap(), topic);
			int master = cluster.masters().get(0);
			int promoted = killMidDrain(registry, master);
			producing.get(2, TimeUnit.MINUTES);

			awaitShortfall(writer, address(promoted), ReplicaShortfall.State.REFUSING);
			assertThat(gauge(registry, "refusing")).isEqualTo(1);
			assertThat(Kafka.sum(Kafka.committedOffsets(admin, topic)))
				.as("committed while every batch writes to the promoted master and is refused")
				.isLessThan(BACKLOG.records());

			cluster.restart(master);
			long restarted = System.nanoTime();

			awaitCommitted(admin, topic, BACKLOG.records());
			await().atMost(DRAIN).until(() -> writer.replicaShortfalls().current().isEmpty());
			System.out.printf("shortfall-refuse (grace %s): drained %d ms after the killed node was restarted%n", GRACE,
					millis(restarted, System.nanoTime()));
			assertVerified(BACKLOG, topic);
			assertThat(gauge(registry, "refusing")).isZero();
			assertThat(registry.find("sawmill.records").tag("outcome", "dead_lettered").counter()).isNull();
		}
	}

	/**
	 * The same on a Sentinel-managed master and its one replica (wait-for-replicas 1 by
	 * default with Sentinel): the replica the Sentinel promotes has none, and the killed
	 * node never comes back.
	 */
	@Test
	void shouldDrainAfterTheGraceWhenTheSentinelsKilledMasterNeverComesBack() throws Exception {
		sentinel = RedisSentinelProcess.startNew();
		String topic = "shortfall-sentinel";
		kafka.createTopic(topic, PARTITIONS);
		Map<String, Object> properties = SawmillApp.baseProperties(kafka, sentinel, topic, topic);
		properties.put("sawmill.batch-size", 500);
		properties.put("sawmill.pipeline.timeout", "2s");
		properties.put("sawmill.pipeline.replica-timeout", "500ms");
		properties.put("sawmill.pipeline.replica-shortfall-grace", GRACE);
		properties.put("sawmill.circuit-breaker.open-wait", "1s");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties); Admin admin = Kafka.admin(bootstrap())) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			LettucePipelinedWriter writer = (LettucePipelinedWriter) app.getBean(RedisBatchWriter.class);
			CompletableFuture<Void> producing = BACKLOG.produceAllInBackground(bootstrap(), topic);
			await().atMost(DRAIN).until(() -> written(registry) >= BACKLOG.records() / 3);
			sentinel.killMaster();
			producing.get(2, TimeUnit.MINUTES);

			awaitShortfall(writer, "master", ReplicaShortfall.State.PROCEEDING);
			assertThat(gauge(registry, "proceeding")).isEqualTo(1);
			awaitCommitted(admin, topic, BACKLOG.records());
			RedisServerProcess promoted = sentinel.master();
			RedisVerifier.Result result = BACKLOG.verify(promoted.host(), promoted.port(), FaultAssertions.TTL);
			assertThat(result.allVerified()).as(result.toString()).isTrue();
			assertThat(registry.find("sawmill.records").tag("outcome", "dead_lettered").counter()).isNull();
		}
	}

	private void startCluster() {
		cluster = RedisClusterProcess.startNew(1);
		readerClient = RedisClusterClient
			.create(cluster.ports().stream().map(port -> RedisURI.create(cluster.host(), port)).toList());
	}

	private ConfigurableApplicationContext start(String topic, String policy) {
		kafka.createTopic(topic, PARTITIONS);
		Map<String, Object> properties = SawmillApp.baseProperties(kafka, cluster, topic, topic);
		properties.put("sawmill.mapping.key-template", topic + ":" + SampleEvents.KEY_TEMPLATE);
		properties.put("sawmill.concurrency", PARTITIONS);
		properties.put("sawmill.batch-size", 500);
		properties.put("sawmill.pipeline.timeout", "2s");
		properties.put("sawmill.pipeline.replica-timeout", "500ms");
		properties.put("sawmill.pipeline.wait-for-replicas", 1);
		properties.put("sawmill.pipeline.replica-shortfall", policy);
		properties.put("sawmill.pipeline.replica-shortfall-grace", GRACE);
		properties.put("sawmill.circuit-breaker.open-wait", "1s");
		properties.put("spring.data.redis.lettuce.cluster.refresh.adaptive", true);
		properties.put("management.endpoint.health.show-details", "always");
		return SawmillApp.run(properties);
	}

	/**
	 * SIGKILLs {@code master} once a third of the backlog is written, and waits until its
	 * replica took over.
	 * @return the port of the promoted replica
	 */
	private int killMidDrain(MeterRegistry registry, int master) {
		int replica = cluster.replicaOf(master);
		await().atMost(DRAIN).until(() -> written(registry) >= BACKLOG.records() / 3);
		killedAt = System.nanoTime();
		cluster.kill(master);
		cluster.awaitMaster(replica, PROMOTION);
		return replica;
	}

	/**
	 * Waits until the writer shows {@code master} with no replica of the one asked for,
	 * in {@code state}.
	 */
	private static void awaitShortfall(LettucePipelinedWriter writer, String master, ReplicaShortfall.State state) {
		await().atMost(DRAIN)
			.until(() -> writer.replicaShortfalls().current(),
					shortfalls -> shortfalls.stream()
						.anyMatch(shortfall -> shortfall.master().equals(master) && shortfall.attached() == 0
								&& shortfall.required() == 1 && shortfall.state() == state));
	}

	private void awaitCommitted(Admin admin, String topic, long records) throws Exception {
		Map<TopicPartition, Long> end = Kafka.endOffsets(admin, topic, PARTITIONS);
		assertThat(Kafka.sum(end)).isEqualTo(records);
		await().atMost(DRAIN).until(() -> Kafka.committedOffsets(admin, topic).equals(end));
	}

	/**
	 * Every key holds the last version {@code events} produced, with a TTL, read through
	 * the cluster as it is now.
	 */
	private void assertVerified(VersionedEvents events, String topic) {
		readerClient.refreshPartitions();
		try (StatefulRedisClusterConnection<String, String> reader = readerClient.connect()) {
			RedisVerifier.Result result = RedisVerifier.verify(reader, events.keys(),
					id -> topic + ":" + SampleEvents.key(id), events::finalHash, FaultAssertions.TTL);
			assertThat(result.allVerified()).as(result.toString()).isTrue();
		}
	}

	private String address(int port) {
		return cluster.host() + ":" + port;
	}

	private static String bootstrap() {
		return kafka.bootstrapServers();
	}

	private static int port(ConfigurableApplicationContext app) {
		return app.getBean(Environment.class).getRequiredProperty("local.server.port", Integer.class);
	}

	private static long millis(long from, long to) {
		return TimeUnit.NANOSECONDS.toMillis(to - from);
	}

	private static double gauge(MeterRegistry registry, String state) {
		return registry.get("sawmill.redis.replica.shortfall").tag("state", state).gauge().value();
	}

	private static double written(MeterRegistry registry) {
		return registry.find("sawmill.records")
			.tag("outcome", "written")
			.counters()
			.stream()
			.mapToDouble(counter -> counter.count())
			.sum();
	}

}
