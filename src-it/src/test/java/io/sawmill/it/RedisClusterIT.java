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
package io.sawmill.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.it.support.ClusterSlots;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.it.support.Scrape;
import io.sawmill.testkit.RedisClusterProcess;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * The real service against a real Redis Cluster of three masters
 * ({@code spring.data.redis.cluster.nodes} only), consuming from a real broker: the
 * writer's cluster path (commands routed per slot, redirects followed, flushed again
 * while replies are outstanding) under the whole data path, with batches in flight,
 * retries and commits. The writer tests prove the cluster path batch by batch; this
 * proves what a user sees.
 * <ul>
 * <li>A backlog drains to every master: each key holds its last version's hash and a TTL,
 * read back from the master that serves its slot, no master holds a key of a slot it does
 * not serve, every offset is committed and the lag reads 0.</li>
 * <li>Slots move between masters while the service drains a backlog and records keep
 * coming: a range of slots is resharded by hand twice (A to B, then B to C), each group
 * of slots held mid-migration while the service writes, so batches meet ASK redirects,
 * and MOVED redirects once the slots are assigned (two hops from where a stale topology
 * puts them). The keys are hot (each comes again within a batch and in the next ones), so
 * a write applied out of order across a redirect would leave an older version. Nothing
 * may be lost, left older or without its TTL, or dead-lettered; every offset must be
 * committed and the service stay healthy. Once with Spring Boot's defaults (no topology
 * refresh: the service never learns where the slots went) and once with adaptive and
 * periodic topology refresh (the routing changes under batches in flight). Redis's own
 * {@code INFO errorstats} shows the redirects happened. A write that a redirect let a
 * later write to its key overtake is written again, in order, by the service (the
 * writer's {@code KeyOrder}, whose retries show in the log); as the key's later versions
 * would hide such a reorder from the checks here,
 * {@code LettucePipelinedWriterReshardTests} proves it deterministically.</li>
 * </ul>
 * Record {@code i} of a test is event {@code i % keys} at version {@code i / keys}, keyed
 * by its user id, so every version of a key lands on one partition in order and the last
 * one produced is the one Redis must hold. Each test has its own topic, group, key prefix
 * and slots on the shared cluster and broker.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RedisClusterIT {

	private static final int PARTITIONS = 3;

	private static final Duration TTL = Duration.ofHours(1);

	/**
	 * Keys of a reshard test: few enough that a key comes again within a batch and in the
	 * next ones, so the order of its writes across redirects decides what Redis ends
	 * with.
	 */
	private static final int HOT_KEYS = 1_000;

	/**
	 * Versions of every key produced before a reshard test's service starts: enough that
	 * the first move starts while the backlog drains (10 were not, once Lettuce's command
	 * queue lost its index).
	 */
	private static final int BACKLOG_VERSIONS = 40;

	private static final int MOVED_SLOTS = 512;

	private static final int SLOTS_PER_GROUP = 128;

	private static final int KEYS_PER_MIGRATE = 2;

	private static final int WRITTEN_PER_GROUP = 500;

	private static KafkaServer kafka;

	private static Admin admin;

	private static RedisClusterProcess cluster;

	private static ClusterSlots slots;

	private static RedisClusterClient readerClient;

	private static StatefulRedisClusterConnection<String, String> reader;

	@BeforeAll
	static void startServers() {
		cluster = RedisClusterProcess.startNew();
		slots = ClusterSlots.of(cluster);
		readerClient = RedisClusterClient
			.create(cluster.ports().stream().map(port -> RedisURI.create(cluster.host(), port)).toList());
		reader = readerClient.connect();
		kafka = KafkaServer.start();
		admin = Kafka.admin(kafka.bootstrapServers());
	}

	@AfterAll
	static void stopServers() {
		if (admin != null) {
			admin.close();
		}
		if (kafka != null) {
			kafka.close();
		}
		if (reader != null) {
			reader.close();
		}
		if (readerClient != null) {
			readerClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
		if (slots != null) {
			slots.close();
		}
		if (cluster != null) {
			cluster.close();
		}
	}

	@Test
	void shouldDrainABacklogToEveryMasterWithEachKeysLastHashAndTtlAndCommitEveryOffset() throws Exception {
		Workload workload = new Workload("cluster-backlog", 15_000);
		long records = 30_000;
		workload.createTopic();
		workload.produce(0, records);

		try (ConfigurableApplicationContext app = SawmillApp.run(workload.properties())) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);

			Map<TopicPartition, Long> end = awaitAllCommitted(workload, records);
			await("the lag gauges read 0").atMost(Duration.ofSeconds(10))
				.until(() -> registry.find("sawmill.lag.records").gauges().size() == PARTITIONS
						&& registry.find("sawmill.lag.records").gauges().stream().mapToDouble(Gauge::value).sum() == 0);

			assertEveryKeyVerified(workload, records);
			Map<Integer, Long> perMaster = assertEveryKeyOnTheMasterOfItsSlot(workload);
			assertThat(perMaster).hasSize(3)
				.allSatisfy((port, count) -> assertThat(count).as("keys on the master on %d", port).isPositive());
			assertThat(count(registry, "written")).isEqualTo(records);
			assertNothingDeadLettered(workload, registry);
			System.out.printf("cluster backlog: %d records, %d keys, committed %d, keys per master %s, re-polled %d%n",
					records, workload.keys, Kafka.sum(end), perMaster, count(registry, "retried"));
		}
	}

	@Test
	void shouldLoseNothingWhileSlotsMoveBetweenMastersUnderLoad() throws Exception {
		reshardUnderLoad(new Workload("cluster-reshard", HOT_KEYS), 0, Map.of(), true);
	}

	@Test
	void shouldLoseNothingWhileSlotsMoveUnderLoadWithAdaptiveAndPeriodicTopologyRefresh() throws Exception {
		// what a production client usually runs with: the topology changes under batches
		// in flight
		reshardUnderLoad(new Workload("cluster-reshard-refresh", HOT_KEYS), 6_000,
				Map.of("spring.data.redis.lettuce.cluster.refresh.adaptive", true,
						"spring.data.redis.lettuce.cluster.refresh.period", "500ms"),
				false);
	}

	/**
	 * Drains a backlog of {@value #BACKLOG_VERSIONS} versions per key while records keep
	 * coming, and moves {@value #MOVED_SLOTS} slots from {@code firstSlot} on from their
	 * master A to B, then from B to C.
	 * @param staleTopology whether the service's client never refreshes its topology, so
	 * that it must have met MOVED redirects
	 */
	private static void reshardUnderLoad(Workload workload, int firstSlot, Map<String, Object> redisProperties,
			boolean staleTopology) throws Exception {
		workload.createTopic();
		long backlog = BACKLOG_VERSIONS * workload.keys;
		workload.produce(0, backlog);
		List<Integer> range = IntStream.range(firstSlot, firstSlot + MOVED_SLOTS).boxed().toList();
		int[] owners = slots.owners();
		int a = owners[firstSlot];
		assertThat(range).as("the range is on one master").allSatisfy(slot -> assertThat(owners[slot]).isEqualTo(a));
		List<Integer> others = cluster.ports().stream().filter(port -> port != a).toList();
		int b = others.get(0);
		int c = others.get(1);
		long keysInRange = LongStream.range(0, workload.keys)
			.filter(id -> range.contains(ClusterSlots.slotOf(workload.key(id))))
			.count();

		Map<String, Object> properties = workload.properties();
		properties.putAll(redisProperties);
		properties.put("management.endpoint.health.show-details", "always");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties);
				SteadyProducer producer = new SteadyProducer(workload, backlog, 4_000)) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			await("the service drains the backlog").atMost(Duration.ofSeconds(30))
				.until(() -> count(registry, "written") >= 1_000);
			long movedBefore = slots.errorReplies("MOVED");
			long askBefore = slots.errorReplies("ASK");

			Move first = move(range, a, b, registry);
			Move second = move(range, b, c, registry);
			long records = producer.stop();
			long moved = slots.errorReplies("MOVED") - movedBefore;
			long ask = slots.errorReplies("ASK") - askBefore;
			System.out.printf(
					"%s: %s; %s; %d redirects MOVED and %d ASK; %d records produced over %d keys, %d in the"
							+ " range%n",
					workload.topic, first, second, moved, ask, records, workload.keys, keysInRange);

			Map<TopicPartition, Long> end = awaitAllCommitted(workload, records);
			assertThat(keysInRange).as("keys of the test in the range").isPositive();
			assertThat(first.writtenBy() - first.writtenDuring()).as("records written before the first move")
				.isLessThan(backlog);
			assertThat(first.writtenDuring()).as("records written while slots moved from %d to %d", a, b).isPositive();
			assertThat(second.writtenDuring()).as("records written while slots moved from %d to %d", b, c).isPositive();
			assertThat(ask).as("ASK redirects while slots were mid-migration").isPositive();
			if (staleTopology) {
				assertThat(moved).as("MOVED redirects to the service's stale topology").isPositive();
			}
			assertThat(slots.notSeenOn(range, c)).as("slots of the range some master does not see on %d", c).isEmpty();

			assertEveryKeyVerified(workload, records);
			Map<Integer, Long> perMaster = assertEveryKeyOnTheMasterOfItsSlot(workload);
			assertThat(count(registry, "written")).isGreaterThanOrEqualTo(records);
			assertNothingDeadLettered(workload, registry);
			assertHealthy(app);
			System.out.printf("%s: committed %d, keys per master %s, written %d, re-polled %d%n", workload.topic,
					Kafka.sum(end), perMaster, count(registry, "written"), count(registry, "retried"));
		}
	}

	/**
	 * Moves the slots in groups of {@value #SLOTS_PER_GROUP}, {@value #KEYS_PER_MIGRATE}
	 * keys per MIGRATE, while the service writes. Each group is held mid-migration (every
	 * key moved, the slots not yet assigned) until the service has written
	 * {@value #WRITTEN_PER_GROUP} more records, so that batches meet ASK redirects; notes
	 * how many records it wrote meanwhile.
	 */
	private static Move move(List<Integer> range, int source, int target, MeterRegistry registry) {
		long before = count(registry, "written");
		long started = System.nanoTime();
		int keys = 0;
		for (int from = 0; from < range.size(); from += SLOTS_PER_GROUP) {
			List<Integer> group = range.subList(from, Math.min(range.size(), from + SLOTS_PER_GROUP));
			slots.beginMove(group, source, target);
			keys += slots.migrateKeys(group, source, target, KEYS_PER_MIGRATE);
			long held = count(registry, "written");
			await("records written while slots " + group.get(0) + "… are mid-migration").atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(10))
				.until(() -> count(registry, "written") >= held + WRITTEN_PER_GROUP);
			slots.endMove(group, target);
		}
		long after = count(registry, "written");
		return new Move(source, target, range.size(), keys, after - before, after,
				Duration.ofNanos(System.nanoTime() - started));
	}

	private record Move(int source, int target, int slots, int keys, long writtenDuring, long writtenBy,
			Duration took) {

		@Override
		public String toString() {
			return slots + " slots with " + keys + " keys moved from " + source + " to " + target + " in "
					+ took.toMillis() + " ms while " + writtenDuring + " records were written";
		}
	}

	private static void assertHealthy(ConfigurableApplicationContext app) {
		int port = app.getBean(Environment.class).getRequiredProperty("local.server.port", Integer.class);
		JsonNode health = JsonMapper.builder().build().readTree(Scrape.get(port, "/actuator/health"));
		assertThat(health.path("status").asString()).as("health %s", health).isEqualTo("UP");
		for (String component : List.of("sawmillRedis", "sawmillListeners", "redis")) {
			assertThat(health.path("components").path(component).path("status").asString())
				.as("%s in %s", component, health)
				.isEqualTo("UP");
		}
	}

	private static Map<TopicPartition, Long> awaitAllCommitted(Workload workload, long records) throws Exception {
		Map<TopicPartition, Long> end = Kafka.endOffsets(admin, workload.topic, PARTITIONS);
		assertThat(Kafka.sum(end)).as("records in %s", workload.topic).isEqualTo(records);
		await("group " + workload.topic + " commits every end offset " + end).atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(250))
			.until(() -> Kafka.committedOffsets(admin, workload.topic).equals(end));
		return end;
	}

	/**
	 * Every key holds the hash of the last version produced for it and a TTL, read
	 * through the cluster.
	 */
	private static void assertEveryKeyVerified(Workload workload, long records) {
		readerClient.refreshPartitions();
		RedisVerifier.Result result = RedisVerifier.verify(reader, workload.keys, workload::key,
				id -> SampleEvents.hash(id, workload.lastVersion(id, records)), TTL);
		assertThat(result.allVerified()).as(result.toString()).isTrue();
	}

	/**
	 * Each master holds only keys of slots it serves, and together they hold each key
	 * once.
	 * @return the test's keys on each master, by port
	 */
	private static Map<Integer, Long> assertEveryKeyOnTheMasterOfItsSlot(Workload workload) {
		int[] owners = slots.owners();
		Map<Integer, List<String>> keys = slots.keys(workload.prefix() + "*");
		Map<Integer, Long> counts = new LinkedHashMap<>();
		keys.forEach((port, held) -> {
			counts.put(port, (long) held.size());
			List<String> misplaced = new ArrayList<>();
			for (String key : held) {
				if (owners[ClusterSlots.slotOf(key)] != port) {
					misplaced.add(key);
				}
			}
			assertThat(misplaced).as("keys on %d in slots it does not serve", port).isEmpty();
		});
		assertThat(counts.values().stream().mapToLong(Long::longValue).sum()).as("keys over all masters")
			.isEqualTo(workload.keys);
		return counts;
	}

	/**
	 * The dead-letter topic is empty and no record was dead-lettered or found invalid.
	 */
	private static void assertNothingDeadLettered(Workload workload, MeterRegistry registry) throws Exception {
		assertThat(Kafka.sum(Kafka.endOffsets(admin, workload.topic + ".DLT", PARTITIONS))).as("dead letters").isZero();
		assertThat(count(registry, "dead_lettered")).as("records dead-lettered").isZero();
		assertThat(count(registry, "invalid")).as("records found invalid").isZero();
	}

	private static long count(MeterRegistry registry, String outcome) {
		return (long) registry.find("sawmill.records")
			.tag("outcome", outcome)
			.counters()
			.stream()
			.mapToDouble(Counter::count)
			.sum();
	}

	/**
	 * A test's topic (also its group and key prefix) and how many keys its records cycle
	 * through.
	 */
	private record Workload(String topic, int keys) {

		String prefix() {
			return topic + ":";
		}

		String key(long id) {
			return prefix() + SampleEvents.key(id);
		}

		Map<String, Object> properties() {
			Map<String, Object> properties = SawmillApp.baseProperties(kafka, cluster, topic, topic);
			properties.put("sawmill.mapping.key-template", prefix() + SampleEvents.KEY_TEMPLATE);
			properties.put("sawmill.concurrency", PARTITIONS);
			properties.put("sawmill.batch-size", 500);
			// a command stuck on a redirect fails its batch (retried) within the test's
			// time rather than after 30 s
			properties.put("sawmill.pipeline.timeout", "5s");
			return properties;
		}

		/** The version of the last of {@code records} records produced for {@code id}. */
		int lastVersion(long id, long records) {
			return (int) ((records - 1 - id) / keys);
		}

		ProducerRecord<byte[], byte[]> record(long i) {
			long id = i % keys;
			return new ProducerRecord<>(topic, SampleEvents.userId(id).getBytes(StandardCharsets.UTF_8),
					SampleEvents.json(id, (int) (i / keys)));
		}

		/**
		 * Creates the topic and waits until the leader of every partition answers: a
		 * producer that sends before that can meet NOT_LEADER_OR_FOLLOWER and then,
		 * idempotent, retry out of sequence.
		 */
		void createTopic() {
			kafka.createTopic(topic, PARTITIONS);
			await("the partitions of " + topic + " have a leader").atMost(Duration.ofSeconds(30))
				.ignoreExceptions()
				.until(() -> Kafka.endOffsets(admin, topic, PARTITIONS).size() == PARTITIONS);
		}

		/** Produces records {@code from…to-1} and waits until Kafka acknowledged each. */
		void produce(long from, long to) {
			Kafka.produce(kafka.bootstrapServers(), topic, from, to, i -> SampleEvents.userId(i % keys),
					i -> SampleEvents.json(i % keys, (int) (i / keys)));
		}
	}

	/**
	 * Produces a workload's records from {@code first} on, in acknowledged slices at
	 * about {@code perSecond} records a second, until {@link #stop()}.
	 */
	private static final class SteadyProducer implements AutoCloseable {

		private static final int SLICE = 200;

		private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
			Thread producing = new Thread(r, "cluster-it-producer");
			producing.setDaemon(true);
			return producing;
		});

		private final AtomicBoolean stopping = new AtomicBoolean();

		private final AtomicLong next;

		private final Future<?> producing;

		SteadyProducer(Workload workload, long first, int perSecond) {
			this.next = new AtomicLong(first);
			Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
					ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
					ProducerConfig.LINGER_MS_CONFIG, 5);
			this.producing = thread.submit(() -> {
				try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
						new ByteArraySerializer())) {
					long started = System.nanoTime();
					while (!stopping.get()) {
						long from = next.get();
						List<Future<RecordMetadata>> acks = new ArrayList<>(SLICE);
						for (long i = from; i < from + SLICE; i++) {
							acks.add(producer.send(workload.record(i)));
						}
						producer.flush();
						for (Future<RecordMetadata> ack : acks) {
							ack.get(30, TimeUnit.SECONDS);
						}
						next.set(from + SLICE);
						long due = started + TimeUnit.SECONDS.toNanos(next.get() - first) / perSecond;
						TimeUnit.NANOSECONDS.sleep(Math.max(0, due - System.nanoTime()));
					}
				}
				return null;
			});
		}

		/**
		 * Stops after the slice under way, once Kafka acknowledged it.
		 * @return the records produced: the workload's records end here
		 */
		long stop() throws Exception {
			stopping.set(true);
			producing.get(30, TimeUnit.SECONDS);
			return next.get();
		}

		@Override
		public void close() {
			stopping.set(true);
			thread.shutdownNow();
		}

	}

}
