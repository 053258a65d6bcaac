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
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.listener.Delivery;
import io.sawmill.listener.OffsetReset;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.redis.internal.TransactionalBatchWriter.FencedException;
import io.sawmill.testkit.RedisServerProcess;

/**
 * Exactly-once writes against a real redis-server: each record's {@code INCR} is applied
 * once, however often its batch comes again. The transient failure is real: the writer's
 * ACL user may not touch {@code deny:*} keys until a test allows it, and Redis refuses
 * such a command at queue time (NOPERM), so its transaction answers EXECABORT.
 */
class ExactlyOnceWritesTests {

	private static RedisServerProcess redis;

	private static RedisClient admin;

	private static StatefulRedisConnection<String, String> adminConnection;

	private static RedisCommands<String, String> commands;

	private static RedisClient writerClient;

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final SawmillMetrics metrics = new SawmillMetrics(registry, "g1");

	private LettucePipelinedWriter writer;

	private TransactionalPipeline pipeline;

	private String prefix;

	@BeforeAll
	static void startRedis() {
		redis = RedisServerProcess.startNew();
		admin = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		adminConnection = admin.connect();
		commands = adminConnection.sync();
		writerClient = RedisClient.create(RedisURI.builder()
			.withHost(redis.host())
			.withPort(redis.port())
			.withAuthentication("writer", "secret")
			.build());
	}

	@AfterAll
	static void stopRedis() {
		writerClient.shutdown();
		adminConnection.close();
		admin.shutdown();
		redis.close();
	}

	@BeforeEach
	void pipeline() {
		commands.aclSetuser("writer",
				AclSetuserArgs.Builder.reset()
					.on()
					.addPassword("secret")
					.keyPattern("ok:*")
					.keyPattern("sawmill:*")
					.allCommands());
		prefix = UUID.randomUUID() + ":";
		ListenerConfig config = ListenerConfig.custom()
			.topics(List.of("t"))
			.groupId("g-" + prefix)
			.delivery(Delivery.EXACTLY_ONCE)
			.build();
		writer = new LettucePipelinedWriter(() -> writerClient,
				PipelineConfig.custom().timeout(Duration.ofSeconds(10)).build());
		pipeline = pipeline(config);
	}

	private TransactionalPipeline pipeline(ListenerConfig config) {
		return new TransactionalPipeline(writer, config, RedisCircuit.disabled("test"), metrics);
	}

	@AfterEach
	void closeWriter() {
		writer.close();
	}

	@Test
	void shouldSkipEveryRecordOfABatchThatComesAgainAfterItsWritesApplied() {
		List<MappedRecord> batch = batch("ok");

		BatchOutcomes first = pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);
		// as a restarted consumer thread: nothing cached, the watermarks are read from
		// Redis
		BatchOutcomes again = pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);

		assertThat(withOutcome(batch, first, RecordOutcome.DUPLICATE)).isEmpty();
		assertThat(withOutcome(batch, again, RecordOutcome.DUPLICATE)).hasSize(batch.size());
		assertThat(counters()).containsOnly(1L);
		assertThat(commands.get("sawmill:applied:{g-" + prefix + "}:t:0")).isEqualTo("3");
		assertThat(commands.get("sawmill:applied:{g-" + prefix + "}:t:1")).isEqualTo("103");
	}

	@Test
	void shouldFailTheBatchWholeWhenOnePartitionsTransactionDidNotApplyAndSkipWhatDidWhenItComesAgain() {
		List<MappedRecord> batch = batch("ok");
		// partition 1's last record also writes a key the writer may not touch yet
		MappedRecord last = batch.remove(batch.size() - 1);
		batch.add(new MappedRecord(last.record(), List.of(last.writes().get(0), incr("deny:x"))));
		AppliedOffsets applied = pipeline.newAppliedOffsets();

		BatchWriteFailedException failure = catchThrowableOfType(BatchWriteFailedException.class,
				() -> pipeline.write(batch, applied, Brokers.COMMITTED_BY_SAWMILL));
		assertThat(failure).hasMessageContaining("EXECABORT");
		// partition 0's transaction applied; nothing of partition 1's did
		assertThat(counters()).containsExactly(1L, 1L, 1L, 0L, 0L, 0L);

		commands.aclSetuser("writer", AclSetuserArgs.Builder.allKeys());
		BatchOutcomes again = pipeline.write(batch, applied, Brokers.COMMITTED_BY_SAWMILL);

		assertThat(withOutcome(batch, again, RecordOutcome.DUPLICATE)).extracting(ConsumerRecord::partition)
			.containsExactly(0, 0, 0);
		assertThat(counters()).containsOnly(1L);
		assertThat(commands.get(new String(key("deny:x"), StandardCharsets.UTF_8))).isEqualTo("1");
	}

	@Test
	void shouldDeadLetterARecordRedisRejectedInsideAnAppliedTransactionAgainUntilItsBatchIsCommitted() {
		commands.hset(new String(key("ok:hash"), StandardCharsets.UTF_8), "f", "v");
		List<MappedRecord> batch = batch("ok");
		batch.add(new MappedRecord(new ConsumerRecord<>("t", 0, 3, null, new byte[0]), List.of(incr("ok:hash"))));
		AppliedOffsets applied = pipeline.newAppliedOffsets();

		BatchOutcomes first = pipeline.write(batch, applied, Brokers.COMMITTED_BY_SAWMILL);
		// its dead letter was not published (the batch was not committed): the batch
		// comes again
		BatchOutcomes again = pipeline.write(batch, applied, Brokers.COMMITTED_BY_SAWMILL);
		applied.unpublished().published(again.deadLetters());
		BatchOutcomes third = pipeline.write(batch, applied, Brokers.COMMITTED_BY_SAWMILL);

		assertThat(first.deadLetters()).singleElement()
			.satisfies(deadLetter -> assertThat(deadLetter.reason()).contains("WRONGTYPE"));
		assertThat(again.deadLetters()).extracting(deadLetter -> deadLetter.record().offset()).containsExactly(3L);
		// one outcome per record: the record dead-lettered again is not also counted as a
		// duplicate
		assertThat(withOutcome(batch, again, RecordOutcome.DEAD_LETTERED)).extracting(ConsumerRecord::offset)
			.containsExactly(3L);
		assertThat(withOutcome(batch, again, RecordOutcome.DUPLICATE)).hasSize(batch.size() - 1);
		assertThat(third.deadLetters()).isEmpty();
		assertThat(counters()).containsOnly(1L);
	}

	@Test
	void shouldSkipARecordRedisRejectedWhoseDeadLetterWasNotPublishedBeforeItsPartitionMoved() {
		commands.hset(new String(key("ok:hash"), StandardCharsets.UTF_8), "f", "v");
		List<MappedRecord> batch = batch("ok");
		ConsumerRecord<byte[], byte[]> rejected = new ConsumerRecord<>("t", 0, 3, null, new byte[0]);
		batch.add(new MappedRecord(rejected, List.of(incr("ok:hash"))));
		pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);

		// the batch was not committed, and its partitions went to another consumer thread
		BatchOutcomes again = pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);

		assertThat(again.deadLetters()).isEmpty();
		assertThat(again.of(rejected)).isEqualTo(RecordOutcome.DUPLICATE);
	}

	@Test
	void shouldCheckAPartitionForAResetOnlyInItsFirstBatchSinceItsAssignment() {
		List<MappedRecord> batch = batch("ok");
		AppliedOffsets applied = pipeline.newAppliedOffsets();
		pipeline.write(batch, applied, Brokers.COMMITTED_BY_SAWMILL);

		// the group's offsets moved back while this thread kept the partitions
		BatchOutcomes again = pipeline.write(batch, applied, Brokers.RESET_BY_A_TOOL);

		assertThat(withOutcome(batch, again, RecordOutcome.DUPLICATE)).hasSize(batch.size());
		assertThat(counters()).containsOnly(1L);
	}

	@Test
	void shouldFenceABatchWhoseWatermarkAnotherConsumerMovedMeanwhileAndSkipItWhenItComesAgain() {
		List<MappedRecord> first = batch("ok");
		AppliedOffsets stalled = pipeline.newAppliedOffsets();
		pipeline.write(first, stalled, Brokers.COMMITTED_BY_SAWMILL);
		// the stalled consumer's partitions went to another, which applied the next batch
		List<MappedRecord> next = shifted(first, 3);
		pipeline.write(next, pipeline.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);

		BatchWriteFailedException fenced = catchThrowableOfType(BatchWriteFailedException.class,
				() -> pipeline.write(next, stalled, Brokers.COMMITTED_BY_SAWMILL));
		BatchOutcomes again = pipeline.write(next, stalled, Brokers.COMMITTED_BY_SAWMILL);

		assertThat(fenced).isNotNull();
		assertThat(fenced.getCause()).isInstanceOf(FencedException.class);
		assertThat(counters()).containsOnly(2L);
		assertThat(registry.get("sawmill.records").tag("outcome", "fenced").counter().count()).isEqualTo(6);
		assertThat(withOutcome(next, again, RecordOutcome.DUPLICATE)).hasSize(next.size());
	}

	@Test
	void shouldReplayAPartitionWhoseOffsetsSomeoneElseResetBelowItsWatermark() {
		List<MappedRecord> batch = batch("ok");
		pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);

		BatchOutcomes replayed = pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.RESET_BY_A_TOOL);

		assertThat(withOutcome(batch, replayed, RecordOutcome.DUPLICATE)).isEmpty();
		assertThat(counters()).containsOnly(2L);
		assertThat(commands.get("sawmill:applied:{g-" + prefix + "}:t:0")).isEqualTo("3");
		assertThat(registry.get("sawmill.offset.resets").tag("action", "replayed").counter().count()).isEqualTo(2);
	}

	@Test
	void shouldReplayAPartitionWithoutACommittedOffsetWhoseWatermarkIsPastItsEndAsARecreatedTopic() {
		List<MappedRecord> batch = batch("ok");
		pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);

		pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.nothingCommitted(2));

		assertThat(counters()).containsOnly(2L);
	}

	@Test
	void shouldSkipWhatThePreviousOwnerAppliedButNeverCommittedAsDuplicates() {
		List<MappedRecord> batch = batch("ok");
		pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);

		BatchOutcomes again = pipeline.write(batch, pipeline.newAppliedOffsets(), Brokers.nothingCommitted(1_000));

		assertThat(withOutcome(batch, again, RecordOutcome.DUPLICATE)).hasSize(batch.size());
		assertThat(counters()).containsOnly(1L);
	}

	@Test
	void shouldRefuseAPartitionWhoseOffsetsWereResetWhenConfiguredToAndReportItOnce() {
		TransactionalPipeline refusing = pipeline(ListenerConfig.custom()
			.topics(List.of("t"))
			.groupId("g-" + prefix)
			.delivery(Delivery.EXACTLY_ONCE)
			.offsetReset(OffsetReset.REFUSE)
			.build());
		List<MappedRecord> batch = batch("ok");
		refusing.write(batch, refusing.newAppliedOffsets(), Brokers.COMMITTED_BY_SAWMILL);
		AppliedOffsets reassigned = refusing.newAppliedOffsets();

		for (int attempt = 0; attempt < 2; attempt++) {
			assertThatThrownBy(() -> refusing.write(batch, reassigned, Brokers.RESET_BY_A_TOOL))
				.isInstanceOf(BatchWriteFailedException.class)
				.hasMessageContaining("partition t-0 starts at offset 0, below its watermark 3")
				.hasMessageContaining("refused");
		}
		assertThat(counters()).containsOnly(1L);
		assertThat(registry.get("sawmill.offset.resets").tag("action", "refused").counter().count()).isEqualTo(2);
	}

	/** The same records' writes at offsets {@code by} higher. */
	private static List<MappedRecord> shifted(List<MappedRecord> batch, long by) {
		return batch.stream()
			.map(record -> new MappedRecord(new ConsumerRecord<>("t", record.record().partition(),
					record.record().offset() + by, null, new byte[0]), record.writes()))
			.toList();
	}

	/**
	 * Three records on partition 0 (offsets 0-2) and three on partition 1 (100-102), each
	 * incrementing its own counter.
	 */
	private List<MappedRecord> batch(String namespace) {
		List<MappedRecord> batch = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			int partition = i / 3;
			long offset = partition * 100L + i % 3;
			batch.add(new MappedRecord(new ConsumerRecord<>("t", partition, offset, null, new byte[0]),
					List.of(incr(namespace + ":" + i))));
		}
		return batch;
	}

	private RedisWrite incr(String name) {
		return RedisWrite.command("INCR", key(name));
	}

	private List<Long> counters() {
		List<Long> values = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			String value = commands.get(new String(key("ok:" + i), StandardCharsets.UTF_8));
			values.add(value == null ? 0 : Long.parseLong(value));
		}
		return values;
	}

	private byte[] key(String name) {
		String[] parts = name.split(":", 2);
		return (parts[0] + ":" + prefix + parts[1]).getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * The records of {@code batch} whose outcome in {@code outcomes} is {@code outcome},
	 * in batch order.
	 */
	private static List<ConsumerRecord<byte[], byte[]>> withOutcome(List<MappedRecord> batch, BatchOutcomes outcomes,
			RecordOutcome outcome) {
		return batch.stream().map(MappedRecord::record).filter(record -> outcomes.of(record) == outcome).toList();
	}

}
