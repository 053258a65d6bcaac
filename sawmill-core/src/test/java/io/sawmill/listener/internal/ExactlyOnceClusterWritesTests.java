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
package io.sawmill.listener.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.deadletter.DeadLetter;
import io.sawmill.listener.Delivery;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.redis.internal.TransactionalBatchWriter.Keyspace;
import io.sawmill.testkit.RedisClusterProcess;

/**
 * Exactly-once writes against a real Redis Cluster of three masters: each partition's
 * share in each hash slot is one fenced transaction sent to the slot's master, with a
 * watermark in that slot, and each record's {@code INCR} is applied once however often
 * its batch comes again.
 */
class ExactlyOnceClusterWritesTests {

	private static final int RECORDS = 60;

	private static RedisClusterProcess cluster;

	private static RedisClusterClient client;

	private static StatefulRedisClusterConnection<String, String> connection;

	private static RedisAdvancedClusterCommands<String, String> commands;

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final SawmillMetrics metrics = new SawmillMetrics(registry, "g1");

	private LettucePipelinedWriter writer;

	private TransactionalPipeline pipeline;

	private String group;

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterProcess.startNew();
		client = RedisClusterClient
			.create(cluster.ports().stream().map(port -> RedisURI.create(cluster.host(), port)).toList());
		connection = client.connect();
		commands = connection.sync();
	}

	@AfterAll
	static void stopCluster() {
		connection.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		cluster.close();
	}

	@BeforeEach
	void pipeline() {
		group = "g-" + UUID.randomUUID();
		writer = new LettucePipelinedWriter(() -> client,
				PipelineConfig.custom().timeout(Duration.ofSeconds(10)).build());
		writer.open(1);
		pipeline = new TransactionalPipeline(writer,
				ListenerConfig.custom().topics(List.of("t")).groupId(group).delivery(Delivery.EXACTLY_ONCE).build(),
				RedisCircuit.disabled("test"), metrics);
	}

	@AfterEach
	void closeWriter() {
		writer.close();
	}

	@Test
	void shouldApplyEachRecordOnceOnEveryMasterAndSkipItWhenItsBatchComesAgain() {
		List<MappedRecord> batch = batch(0);
		assertThat(writer.keyspace()).isEqualTo(Keyspace.CLUSTER);

		pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);
		// as a restarted consumer thread: the slots' watermarks are read from Redis
		BatchOutcomes again = pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);

		assertThat(counters()).containsOnly(1L);
		assertThat(withOutcome(batch, again, RecordOutcome.DUPLICATE)).hasSize(RECORDS);
		assertThat(mastersOf(batch)).as("masters written to").isEqualTo(3);
		MappedRecord last = batch.get(RECORDS - 1);
		Fence fence = new Fence.OfSlot(new TopicPartition("t", 1), Keyspace.slotOf(last.writes().get(0).key()), 0);
		assertThat(commands.get(new String(fence.key(group), StandardCharsets.UTF_8)))
			.isEqualTo(Long.toString(last.record().offset() + 1));
	}

	@Test
	void shouldDeadLetterARecordWhoseWritesSpanSlotsAndWriteEveryOther() {
		List<MappedRecord> batch = new ArrayList<>(batch(0));
		ConsumerRecord<byte[], byte[]> spanning = new ConsumerRecord<>("t", 0, 50, null, new byte[0]);
		batch.add(new MappedRecord(spanning, List.of(incr("{a}" + group), incr("{b}" + group))));

		BatchOutcomes written = pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);

		assertThat(written.of(spanning)).isEqualTo(RecordOutcome.DEAD_LETTERED);
		assertThat(written.deadLetters()).extracting(DeadLetter::reason)
			.singleElement()
			.satisfies(reason -> assertThat(reason).contains("one hash slot").contains("hash tag"));
		assertThat(commands.get("{a}" + group)).isNull();
		assertThat(counters()).containsOnly(1L);
	}

	@Test
	void shouldFenceTheSharesWhoseSlotWatermarkAnotherWriterMovedAndApplyTheOthers() {
		AppliedOffsets zombie = pipeline.newAppliedOffsets();
		pipeline.write(batch(0), zombie, Brokers.COMMITTED_BY_SAWMILL);
		// another consumer took partition 1 over and applied its next records
		List<MappedRecord> next = batch(3);
		pipeline.write(next.stream().filter(record -> record.record().partition() == 1).toList(),
				pipeline.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);

		assertThatThrownBy(() -> pipeline.write(next, zombie, Brokers.COMMITTED_BY_SAWMILL))
			.isInstanceOf(BatchWriteFailedException.class);

		assertThat(counters()).containsOnly(2L);
		assertThat(registry.get("sawmill.records").tag("outcome", "fenced").counter().count()).isEqualTo(RECORDS / 2);
	}

	@Test
	void shouldWriteEveryRecordAgainInANewGenerationWhenThePartitionsOffsetsWereReset() {
		List<MappedRecord> batch = batch(0);
		pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);

		BatchOutcomes replayed = pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.RESET_BY_A_TOOL);

		assertThat(withOutcome(batch, replayed, RecordOutcome.WRITTEN)).hasSize(RECORDS);
		assertThat(counters()).containsOnly(2L);
		assertThat(commands.get("sawmill:generation:{" + group + "}:t:0")).isEqualTo("1");
		assertThat(registry.get("sawmill.offset.resets").tag("action", "replayed").counter().count()).isEqualTo(2);
	}

	@Test
	void shouldMissARecreatedTopicWhoseFirstBatchWritesToNoSlotWithAWatermarkPastItsEnd() {
		List<MappedRecord> old = batch(0);
		pipeline.write(old, pipeline.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);
		Set<Integer> oldSlots = new HashSet<>();
		old.forEach(record -> oldSlots.add(Keyspace.slotOf(record.writes().get(0).key())));
		String newKey = group + ":new";
		for (int n = 0; oldSlots.contains(Keyspace.slotOf(newKey.getBytes(StandardCharsets.UTF_8))); n++) {
			newKey = group + ":new" + n;
		}
		// the topic is re-created: nothing committed, two records so far; its first batch
		// writes a key of a slot without a watermark, its next an old key
		AppliedOffsets applied = pipeline.newAppliedOffsets();
		MappedRecord first = new MappedRecord(new ConsumerRecord<>("t", 0, 0, null, new byte[0]),
				List.of(incr(newKey)));
		pipeline.write(List.of(first), applied, Brokers.nothingCommitted(2));
		ConsumerRecord<byte[], byte[]> second = new ConsumerRecord<>("t", 0, 1, null, new byte[0]);
		BatchOutcomes next = pipeline.write(List.of(new MappedRecord(second, List.of(incr(group + ":29")))), applied,
				Brokers.nothingCommitted(2));

		assertThat(next.of(second)).isEqualTo(RecordOutcome.DUPLICATE);
		assertThat(registry.find("sawmill.offset.resets").tag("action", "replayed").counter().count()).isZero();
	}

	/**
	 * {@link #RECORDS} records, half on partition 0 (offsets 0…) and half on partition 1
	 * (100…), each incrementing its own counter, their offsets {@code by} higher.
	 */
	private List<MappedRecord> batch(long by) {
		List<MappedRecord> batch = new ArrayList<>();
		for (int i = 0; i < RECORDS; i++) {
			int partition = i * 2 / RECORDS;
			long offset = partition * 100L + i % (RECORDS / 2) + by;
			batch.add(new MappedRecord(new ConsumerRecord<>("t", partition, offset, null, new byte[0]),
					List.of(incr(group + ":" + i))));
		}
		return batch;
	}

	private static RedisWrite incr(String key) {
		return RedisWrite.command("INCR", key.getBytes(StandardCharsets.UTF_8));
	}

	private List<Long> counters() {
		List<Long> values = new ArrayList<>();
		for (int i = 0; i < RECORDS; i++) {
			String value = commands.get(group + ":" + i);
			values.add(value == null ? 0 : Long.parseLong(value));
		}
		return values;
	}

	private int mastersOf(List<MappedRecord> batch) {
		Set<String> masters = new HashSet<>();
		for (MappedRecord record : batch) {
			masters.add(connection.getPartitions()
				.getMasterBySlot(Keyspace.slotOf(record.writes().get(0).key()))
				.getNodeId());
		}
		return masters.size();
	}

	private static List<ConsumerRecord<byte[], byte[]>> withOutcome(List<MappedRecord> batch, BatchOutcomes outcomes,
			RecordOutcome outcome) {
		return batch.stream().map(MappedRecord::record).filter(record -> outcomes.of(record) == outcome).toList();
	}

}
