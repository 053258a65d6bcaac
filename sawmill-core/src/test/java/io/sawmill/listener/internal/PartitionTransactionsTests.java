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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.sawmill.deadletter.DeadLetter;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.TransactionalBatchWriter.FencedException;
import io.sawmill.redis.internal.TransactionalBatchWriter.Keyspace;
import io.sawmill.redis.internal.TransactionalBatchWriter.Transaction;

/**
 * Planning per partition, skipping below the watermark and outcomes from transaction
 * replies: pure functions.
 */
class PartitionTransactionsTests {

	private static final TopicPartition P0 = new TopicPartition("t", 0);

	private static final TopicPartition P1 = new TopicPartition("t", 1);

	private static final Fence F0 = new Fence.OfPartition(P0);

	private static final Fence F1 = new Fence.OfPartition(P1);

	private static final Function<MappedRecord, Fence> BY_PARTITION = record -> new Fence.OfPartition(
			PartitionTransactions.partitionOf(record.record()));

	private static final Function<MappedRecord, Fence> BY_SLOT = record -> new Fence.OfSlot(
			PartitionTransactions.partitionOf(record.record()), Keyspace.slotOf(record.writes().get(0).key()), 0);

	@Test
	void shouldMakeEachPartitionsShareOneTransactionEndingWithItsWatermark() {
		List<MappedRecord> records = List.of(incr(0, 10, "a"), incr(1, 3, "b"), incr(0, 11, "c"), incr(1, 4, "d"));

		PartitionTransactions plan = PartitionTransactions.plan(records, BY_PARTITION, PartitionTransactionsTests::key,
				false);

		assertThat(plan.transactions()).hasSize(2);
		assertThat(plan.transactions().get(0).writes()).extracting(Object::toString)
			.containsExactly("INCR a (0 args)", "INCR c (0 args)", "SET wm:t-0 (1 args)");
		assertThat(plan.transactions().get(1).writes()).extracting(Object::toString)
			.containsExactly("INCR b (0 args)", "INCR d (0 args)", "SET wm:t-1 (1 args)");
		assertThat(new String(((RedisWrite.Command) plan.transactions().get(0).writes().get(2)).args().get(0),
				StandardCharsets.US_ASCII))
			.isEqualTo("12");
		assertThat(plan.shares()).containsExactly(new PartitionTransactions.Share(F0, 12, 2),
				new PartitionTransactions.Share(F1, 5, 5));
		// records in offset order within each partition; the watermark carries every
		// record of its share
		assertThat(plan.plan().records()).extracting(r -> r.record().offset()).containsExactly(10L, 11L, 3L, 4L);
		assertThat(plan.plan().carriedBy(2)).containsExactly(0, 1);
		assertThat(plan.plan().carriedBy(3)).containsExactly(2);
		assertThat(plan.plan().carriedBy(5)).containsExactly(2, 3);
	}

	@Test
	void shouldSetTheWatermarkAgainForAPartitionWhoseRecordsAllCameAgainAndFailThemWithIt() {
		PartitionTransactions plan = PartitionTransactions.plan(List.of(incr(1, 3, "b")),
				List.of(incr(0, 10, "a"), incr(0, 11, "c"), incr(1, 2, "x")), BY_PARTITION, Map.of(F0, 12L, F1, 3L),
				PartitionTransactionsTests::key, false);

		assertThat(plan.transactions()).extracting(t -> t.writes().stream().map(Object::toString).toList())
			.containsExactly(List.of("INCR b (0 args)", "SET wm:t-1 (1 args)"), List.of("SET wm:t-0 (1 args)"));
		assertThat(plan.shares()).containsExactly(new PartitionTransactions.Share(F1, 4, 1),
				new PartitionTransactions.Share(F0, 12, 2));
		assertThat(plan.coalesced()).isZero();
		Outcomes outcomes = Outcomes.of(plan.plan(),
				new PipelineResult(3, 1, List.of(failure(2, new RedisCommandTimeoutException("timeout")))));
		assertThat(outcomes.retry()).extracting(r -> r.record().offset()).containsExactly(10L, 11L);
	}

	@Test
	void shouldCoalesceWithinEachPartitionsShareOnly() {
		byte[] key = "k".getBytes(StandardCharsets.UTF_8);
		List<MappedRecord> records = List.of(
				record(0, 1, RedisWrite.hset(key, Map.of("f".getBytes(), "1".getBytes())),
						RedisWrite.expire(key, Duration.ofSeconds(5))),
				record(1, 1, RedisWrite.hset(key, Map.of("f".getBytes(), "2".getBytes()))),
				record(0, 2, RedisWrite.hset(key, Map.of("f".getBytes(), "3".getBytes())),
						RedisWrite.expire(key, Duration.ofSeconds(5))));

		PartitionTransactions plan = PartitionTransactions.plan(records, BY_PARTITION, PartitionTransactionsTests::key,
				true);

		// partition 0's two records fold into one HSET and one EXPIRE; partition 1's
		// stays apart
		assertThat(plan.transactions().get(0).writes()).hasSize(3);
		assertThat(plan.transactions().get(1).writes()).hasSize(2);
		assertThat(plan.coalesced()).isEqualTo(2);
	}

	@Test
	void shouldRetryEveryRecordOfAShareWhoseTransactionDidNotApplyOrMayNotHave() {
		PartitionTransactions plan = PartitionTransactions.plan(
				List.of(incr(0, 10, "a"), incr(1, 3, "b"), incr(0, 11, "c")), BY_PARTITION,
				PartitionTransactionsTests::key, false);
		RedisCommandExecutionException abort = new RedisCommandExecutionException("EXECABORT Transaction discarded");
		// partition 0: a queue-time error (its own) and EXECABORT for the rest; partition
		// 1: no reply
		PipelineResult result = new PipelineResult(5, 1,
				List.of(failure(0, new RedisCommandExecutionException("NOPERM")), failure(1, abort), failure(2, abort),
						failure(3, new RedisCommandTimeoutException("timeout")),
						failure(4, new RedisCommandTimeoutException("timeout"))));

		Outcomes outcomes = Outcomes.of(plan.plan(), result);

		assertThat(outcomes.hasTransientFailures()).isTrue();
		assertThat(outcomes.retry()).extracting(r -> r.record().offset()).containsExactly(10L, 11L, 3L);
		assertThat(outcomes.permanent()).isEmpty();
		assertThat(plan.applied(result)).isEmpty();
	}

	@Test
	void shouldFenceEachPartitionsTransactionByTheWatermarkTheThreadKnows() {
		PartitionTransactions plan = PartitionTransactions.plan(
				List.of(incr(0, 10, "a"), incr(1, 3, "b"), incr(0, 11, "c")), List.of(), BY_PARTITION, Map.of(F0, 10L),
				PartitionTransactionsTests::key, false);

		assertThat(plan.transactions()).extracting(Transaction::expected).containsExactly(10L, 0L);
		assertThat(plan.transactions()).extracting(t -> new String(t.fence(), StandardCharsets.UTF_8))
			.containsExactly("wm:t-0", "wm:t-1");
	}

	@Test
	void shouldCountTheRecordsOfAFencedTransactionAsFencedAndRetryThemWithoutBlamingRedis() {
		PartitionTransactions plan = PartitionTransactions.plan(
				List.of(incr(0, 10, "a"), incr(1, 3, "b"), incr(0, 11, "c")), BY_PARTITION,
				PartitionTransactionsTests::key, false);
		FencedException fenced = new FencedException(key(F0), 0, true);
		PipelineResult result = new PipelineResult(5, 1,
				List.of(failure(0, fenced), failure(1, fenced), failure(2, fenced)));

		Outcomes outcomes = Outcomes.of(plan.plan(), result);

		assertThat(outcomes.retry()).extracting(r -> r.record().offset()).containsExactly(10L, 11L);
		assertThat(outcomes.fenced()).isEqualTo(2);
		assertThat(outcomes.outcome(0)).isEqualTo(RecordOutcome.FENCED);
		assertThat(outcomes.outcome(2)).isEqualTo(RecordOutcome.WRITTEN);
		assertThat(outcomes.redisFailed()).isFalse();
		assertThat(plan.applied(result)).containsExactlyEntriesOf(Map.of(F1, 4L));
	}

	@Test
	void shouldDeadLetterARecordWhoseWriteFailedInsideAnAppliedTransactionWhateverItsClass() {
		PipelineResult result = new PipelineResult(5, 1,
				List.of(failure(1, new RedisCommandExecutionException("WRONGTYPE Operation against a key")),
						failure(3, new RedisCommandExecutionException("ERR some transient-looking error"))));
		PartitionTransactions plan = PartitionTransactions.plan(
				List.of(incr(0, 10, "a"), incr(1, 3, "b"), incr(0, 11, "c")), BY_PARTITION,
				PartitionTransactionsTests::key, false);

		Outcomes outcomes = Outcomes.of(plan.plan(), result);

		assertThat(outcomes.hasTransientFailures()).isFalse();
		assertThat(outcomes.permanent()).extracting(deadLetter -> deadLetter.record().offset())
			.containsExactly(11L, 3L);
		assertThat(outcomes.permanent()).extracting(DeadLetter::reason)
			.allSatisfy(reason -> assertThat(reason).startsWith("Redis rejected a write when its transaction ran"));
		assertThat(plan.applied(result)).containsExactlyInAnyOrderEntriesOf(Map.of(F0, 12L, F1, 4L));
	}

	@Test
	void shouldCountAStaleVersionGuardedWriteOfAnAppliedTransactionAsStale() {
		PartitionTransactions plan = PartitionTransactions.plan(List.of(incr(0, 10, "a"), incr(0, 11, "c")),
				BY_PARTITION, PartitionTransactionsTests::key, false);

		Outcomes outcomes = Outcomes.of(plan.plan(), new PipelineResult(3, 1, List.of(), List.of(1)));

		assertThat(plan.plan().records().get(1).record().offset()).isEqualTo(11L);
		assertThat(outcomes.outcome(1)).isEqualTo(RecordOutcome.STALE);
		assertThat(outcomes.outcome(0)).isEqualTo(RecordOutcome.WRITTEN);
		assertThat(outcomes.retry()).isEmpty();
	}

	@Test
	void shouldSkipRecordsBelowTheirPartitionsWatermark() {
		List<MappedRecord> records = List.of(incr(0, 10, "a"), incr(1, 3, "b"), incr(0, 11, "c"), incr(0, 12, "d"),
				incr(2, 0, "e"));

		AppliedOffsets.Split split = AppliedOffsets.split(records, BY_PARTITION, Map.of(F0, 12L, F1, 3L));

		assertThat(split.duplicates()).extracting(r -> r.record().offset()).containsExactly(10L, 11L);
		assertThat(split.fresh()).extracting(r -> r.record().partition() + "@" + r.record().offset())
			.containsExactly("1@3", "0@12", "2@0");
	}

	@Test
	void shouldMakeEachPartitionsShareInEachSlotOneTransactionOnARedisCluster() {
		List<MappedRecord> records = List.of(incr(0, 10, "{a}1"), incr(0, 11, "{b}1"), incr(0, 12, "{a}2"),
				incr(1, 3, "{a}3"));

		PartitionTransactions plan = PartitionTransactions.plan(records, BY_SLOT, PartitionTransactionsTests::key,
				false);

		int a = Keyspace.slotOf("a".getBytes(StandardCharsets.UTF_8));
		int b = Keyspace.slotOf("b".getBytes(StandardCharsets.UTF_8));
		assertThat(plan.transactions()).extracting(t -> t.writes().stream().map(Object::toString).toList())
			.containsExactly(List.of("INCR {a}1 (0 args)", "INCR {a}2 (0 args)", "SET wm:t-0/" + a + "/0 (1 args)"),
					List.of("INCR {b}1 (0 args)", "SET wm:t-0/" + b + "/0 (1 args)"),
					List.of("INCR {a}3 (0 args)", "SET wm:t-1/" + a + "/0 (1 args)"));
		assertThat(plan.shares()).extracting(PartitionTransactions.Share::next).containsExactly(13L, 12L, 4L);
	}

	@Test
	void shouldPutEachSlotsWatermarkInThatSlotAndEachGenerationInAKeyOfItsOwn() {
		TopicPartition partition = new TopicPartition("orders", 7);
		for (int slot : new int[] { 0, 1, 5461, 12182, 16383 }) {
			byte[] key = new Fence.OfSlot(partition, slot, 2).key("orders-sync");
			assertThat(Keyspace.slotOf(key)).isEqualTo(slot);
			assertThat(new String(key, StandardCharsets.UTF_8)).startsWith("sawmill:applied:{")
				.endsWith("}:orders-sync:orders:7:2");
		}
		assertThat(new Fence.OfSlot(partition, 9, 2).key("g")).isNotEqualTo(new Fence.OfSlot(partition, 9, 3).key("g"));
		assertThat(new String(Fence.OfSlot.generationKey("orders-sync", partition), StandardCharsets.UTF_8))
			.isEqualTo("sawmill:generation:{orders-sync}:orders:7");
	}

	@Test
	void shouldNameTheWatermarkKeyAfterTheGroupTopicAndPartition() {
		assertThat(
				new String(AppliedOffsets.key("orders-sync", new TopicPartition("orders", 7)), StandardCharsets.UTF_8))
			.isEqualTo("sawmill:applied:{orders-sync}:orders:7");
	}

	private static byte[] key(Fence fence) {
		return ("wm:" + fence.partition()
				+ (fence instanceof Fence.OfSlot slot ? "/" + slot.slot() + "/" + slot.generation() : ""))
			.getBytes(StandardCharsets.UTF_8);
	}

	private static PipelineResult.Failure failure(int index, Throwable cause) {
		return new PipelineResult.Failure(index, null, cause);
	}

	private static MappedRecord incr(int partition, long offset, String key) {
		return record(partition, offset, RedisWrite.command("INCR", key.getBytes(StandardCharsets.UTF_8)));
	}

	private static MappedRecord record(int partition, long offset, RedisWrite... writes) {
		return new MappedRecord(new ConsumerRecord<>("t", partition, offset, null, new byte[0]), List.of(writes));
	}

}
