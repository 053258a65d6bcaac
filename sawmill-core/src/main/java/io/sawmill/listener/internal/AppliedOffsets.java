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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.apache.kafka.common.TopicPartition;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.listener.Delivery;
import io.sawmill.listener.OffsetReset;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.TransactionalBatchWriter.Keyspace;
import io.sawmill.redis.internal.TransactionalBatchWriter.Transaction;
import io.sawmill.redis.internal.TransactionalBatchWriter;

/**
 * What one consumer thread knows of its partitions' progress in Redis with
 * {@link Delivery#EXACTLY_ONCE}: the watermark of each {@link Fence}, the offset after
 * the last record whose writes Redis applied, kept in Redis under the fence's key and
 * cached here; and the records whose transaction applied but whose own write failed,
 * until their dead letters are published ({@link UnpublishedDeadLetters}).
 * <p>
 * A watermark is read from Redis (one read for every fence of a batch that has none
 * cached) on the thread's own connection, after every batch it sent there: when the
 * thread first meets the fence, and after a batch of its partition failed, whose
 * transaction may or may not have applied ({@link #forget}). Revoked and lost partitions
 * are forgotten too ({@link #revoked}): the next owner may move their watermarks. A
 * partition whose offsets someone else reset is found when it is first seen after its
 * assignment ({@link OffsetResets}), and replayed or refused, never skipped silently.
 * <p>
 * On a Redis Cluster every write of a record must lie in one hash slot, the slot of its
 * fence: a record whose writes span slots cannot be applied exactly once and is
 * dead-lettered with the reason.
 * <p>
 * Thread-confined: owned by one consumer thread's {@link ExactlyOnce}.
 */
final class AppliedOffsets {

	private final String group;

	private final TransactionalBatchWriter writer;

	private final OffsetResets resets;

	private final Map<Fence, Long> watermarks = new HashMap<>();

	/** Each partition's generation, on a Redis Cluster ({@link Fence.OfSlot}). */
	private final Map<TopicPartition, Long> generations = new HashMap<>();

	private final UnpublishedDeadLetters unpublished = new UnpublishedDeadLetters();

	AppliedOffsets(String group, TransactionalBatchWriter writer, OffsetReset onReset, SawmillMetrics metrics) {
		this.group = group;
		this.writer = writer;
		this.resets = new OffsetResets(onReset, metrics);
	}

	/**
	 * The key of a partition's watermark on one server:
	 * {@code sawmill:applied:{<group>}:<topic>:<partition>}. The consumer group is part
	 * of it, so two groups reading the same topic keep their own.
	 */
	static byte[] key(String group, TopicPartition partition) {
		return new Fence.OfPartition(partition).key(group);
	}

	byte[] key(Fence fence) {
		return fence.key(group);
	}

	/**
	 * The fence of a record's writes: its partition's, or on a Redis Cluster its
	 * partition's in the slot of its writes.
	 * @throws IllegalArgumentException when its writes span slots of a Redis Cluster
	 */
	Fence fenceOf(MappedRecord record) {
		TopicPartition partition = PartitionTransactions.partitionOf(record.record());
		if (writer.keyspace() == Keyspace.ONE_SERVER) {
			return new Fence.OfPartition(partition);
		}
		int slot = Keyspace.slotOf(record.writes().get(0).key());
		for (RedisWrite write : record.writes()) {
			if (Keyspace.slotOf(write.key()) != slot) {
				throw new IllegalArgumentException("exactly-once on a Redis Cluster applies a record's writes in one "
						+ "transaction, which holds keys of one hash slot only, but this record's writes go to "
						+ "slots " + slot + " and " + Keyspace.slotOf(write.key())
						+ ": give its keys one hash tag (e.g. {user:42}:profile and {user:42}:score)");
			}
		}
		return new Fence.OfSlot(partition, slot, generations.getOrDefault(partition, 0L));
	}

	/**
	 * The records to write and those whose writes Redis applied before (their offset is
	 * below their fence's watermark); reads the watermarks not cached first, and replays
	 * or refuses the partitions whose offsets someone else reset ({@link OffsetResets}).
	 * @param broker the consumer's committed and end offsets
	 * @throws RuntimeException when Redis does not answer, or a reset partition is
	 * refused: nothing may be written
	 */
	Split split(List<MappedRecord> records, OffsetResets.Broker broker) {
		Keyspace keyspace = writer.keyspace();
		if (keyspace == Keyspace.CLUSTER) {
			readGenerations(records);
		}
		List<MappedRecord> fenced = new ArrayList<>(records.size());
		List<DeadLetter> unfenced = new ArrayList<>(0);
		for (MappedRecord record : records) {
			try {
				fenceOf(record);
				fenced.add(record);
			}
			catch (IllegalArgumentException ex) {
				unfenced.add(new DeadLetter(record.record(), String.valueOf(ex.getMessage()), ex));
			}
		}
		readWatermarks(fenced);
		List<OffsetResets.Reset> reset = resets.check(starts(fenced), broker, keyspace, resetKeys(fenced, keyspace));
		List<String> refusals = new ArrayList<>(0);
		for (OffsetResets.Reset each : reset) {
			if (resets.policy() == OffsetReset.REPLAY) {
				replay(each, keyspace);
			}
			else {
				resets.refused(each, keyspace == Keyspace.ONE_SERVER
						? "Reset the group's offsets to its watermark or later, or delete the watermark key to replay "
								+ "from " + each.from()
						: "Set sawmill.offset-reset=replay to write the partition again from " + each.from());
				refusals.add(each.why());
			}
		}
		if (!refusals.isEmpty()) {
			throw new IllegalStateException(String.join("; ", refusals) + ": refused (sawmill.offset-reset=refuse)");
		}
		if (!reset.isEmpty()) {
			readWatermarks(fenced);
		}
		Split split = split(fenced, this::fenceOf, watermarks);
		return new Split(split.fresh(), split.duplicates(), unfenced);
	}

	/**
	 * Reads the generation of each partition of a Redis Cluster met for the first time.
	 */
	private void readGenerations(List<MappedRecord> records) {
		List<TopicPartition> missing = new ArrayList<>(0);
		for (MappedRecord record : records) {
			TopicPartition partition = PartitionTransactions.partitionOf(record.record());
			if (!generations.containsKey(partition) && !missing.contains(partition)) {
				missing.add(partition);
			}
		}
		if (missing.isEmpty()) {
			return;
		}
		List<byte[]> keys = new ArrayList<>(missing.size());
		missing.forEach(partition -> keys.add(Fence.OfSlot.generationKey(group, partition)));
		List<byte[]> values = writer.read(keys);
		for (int i = 0; i < missing.size(); i++) {
			generations.put(missing.get(i), parse(values.get(i), keys.get(i)));
		}
	}

	/** Reads the watermarks of the records' fences not cached. */
	private void readWatermarks(List<MappedRecord> records) {
		Set<Fence> missing = new LinkedHashSet<>();
		for (MappedRecord record : records) {
			Fence fence = fenceOf(record);
			if (!watermarks.containsKey(fence)) {
				missing.add(fence);
			}
		}
		if (missing.isEmpty()) {
			return;
		}
		List<Fence> fences = List.copyOf(missing);
		List<byte[]> keys = new ArrayList<>(fences.size());
		fences.forEach(fence -> keys.add(key(fence)));
		List<byte[]> values = writer.read(keys);
		for (int i = 0; i < fences.size(); i++) {
			watermarks.put(fences.get(i), parse(values.get(i), keys.get(i)));
		}
	}

	/** How each partition of the records starts against its watermarks. */
	private Map<TopicPartition, OffsetResets.Start> starts(List<MappedRecord> records) {
		Map<TopicPartition, OffsetResets.Start> starts = new LinkedHashMap<>();
		for (MappedRecord record : records) {
			TopicPartition partition = PartitionTransactions.partitionOf(record.record());
			if (resets.started(partition)) {
				continue;
			}
			long watermark = watermarks.getOrDefault(fenceOf(record), 0L);
			long offset = record.record().offset();
			OffsetResets.Start start = starts.get(partition);
			starts.put(partition,
					start == null ? new OffsetResets.Start(offset, offset < watermark, watermark)
							: new OffsetResets.Start(start.first(), start.below() || offset < watermark,
									Math.max(start.highest(), watermark)));
		}
		return starts;
	}

	/** Where each partition's watermark is, for the log. */
	private Map<TopicPartition, String> resetKeys(List<MappedRecord> records, Keyspace keyspace) {
		Map<TopicPartition, String> keys = new HashMap<>();
		for (MappedRecord record : records) {
			TopicPartition partition = PartitionTransactions.partitionOf(record.record());
			keys.computeIfAbsent(partition,
					p -> keyspace == Keyspace.ONE_SERVER
							? new String(key(new Fence.OfPartition(p)), StandardCharsets.UTF_8)
							: "a watermark of one of its slots, generation " + generations.getOrDefault(p, 0L) + " of "
									+ new String(Fence.OfSlot.generationKey(group, p), StandardCharsets.UTF_8));
		}
		return keys;
	}

	/**
	 * Replays a partition reset by others: on one server its watermark is moved back to
	 * where it starts; on a Redis Cluster it starts a new generation, whose watermarks
	 * are empty. Either by a fenced {@code SET}, so that a concurrent writer's move fails
	 * it.
	 */
	private void replay(OffsetResets.Reset reset, Keyspace keyspace) {
		TopicPartition partition = reset.partition();
		byte[] key;
		long expected;
		long next;
		if (keyspace == Keyspace.ONE_SERVER) {
			Fence fence = new Fence.OfPartition(partition);
			key = key(fence);
			expected = watermarks.getOrDefault(fence, 0L);
			next = reset.from();
		}
		else {
			key = Fence.OfSlot.generationKey(group, partition);
			expected = generations.getOrDefault(partition, 0L);
			next = expected + 1;
		}
		PipelineResult result = writer
			.sendTransactions(List.of(new Transaction(key, expected,
					List.of(RedisWrite.command("SET", key, Long.toString(next).getBytes(StandardCharsets.US_ASCII))))))
			.await();
		forget(List.of(partition));
		if (!result.succeeded()) {
			generations.remove(partition);
			throw new IllegalStateException(
					reset.why() + ": it could not be replayed: " + result.failures().get(0).cause(),
					result.failures().get(0).cause());
		}
		if (keyspace == Keyspace.ONE_SERVER) {
			watermarks.put(new Fence.OfPartition(partition), next);
			resets.replayed(reset, "its watermark is moved back to " + next);
		}
		else {
			generations.put(partition, next);
			resets.replayed(reset, "it starts generation " + next + " of its watermarks");
		}
	}

	/**
	 * Splits {@code records} by the watermarks of their fences (a fence without one has
	 * had nothing applied).
	 */
	static Split split(List<MappedRecord> records, Function<MappedRecord, Fence> fenceOf, Map<Fence, Long> watermarks) {
		List<MappedRecord> fresh = new ArrayList<>(records.size());
		List<MappedRecord> duplicates = new ArrayList<>(0);
		for (MappedRecord record : records) {
			Long next = watermarks.get(fenceOf.apply(record));
			(next != null && record.record().offset() < next ? duplicates : fresh).add(record);
		}
		return new Split(fresh, duplicates, List.of());
	}

	/**
	 * Records split by their fences' watermarks.
	 *
	 * @param fresh the records to write, in poll order
	 * @param duplicates the records whose writes Redis applied before
	 * @param unfenced the records that cannot be written exactly once (their writes span
	 * slots of a Redis Cluster), as dead letters
	 */
	record Split(List<MappedRecord> fresh, List<MappedRecord> duplicates, List<DeadLetter> unfenced) {
	}

	/**
	 * The watermarks known, by fence: every fence of the records {@link #split} last saw
	 * is among them.
	 */
	Map<Fence, Long> watermarks() {
		return Collections.unmodifiableMap(watermarks);
	}

	/** Transactions applied: these fences' watermarks are now as given. */
	void applied(Map<Fence, Long> next) {
		watermarks.putAll(next);
	}

	/**
	 * These partitions' watermarks are unknown now (their batch failed): read them again
	 * before writing.
	 */
	void forget(Collection<TopicPartition> partitions) {
		watermarks.keySet().removeIf(fence -> partitions.contains(fence.partition()));
	}

	/**
	 * These partitions are no longer this thread's (revoked or lost): everything known of
	 * them is dropped. A record Redis rejected inside an applied transaction whose dead
	 * letter was not published by then is skipped by the next owner as a duplicate
	 * (docs/reliability.md).
	 */
	void revoked(Collection<TopicPartition> partitions) {
		forget(partitions);
		generations.keySet().removeAll(partitions);
		resets.revoked(partitions);
		unpublished.revoked(partitions);
	}

	/**
	 * The records Redis rejected inside applied transactions whose dead letters are not
	 * published yet.
	 */
	UnpublishedDeadLetters unpublished() {
		return unpublished;
	}

	private static long parse(byte[] value, byte[] key) {
		if (value == null) {
			return 0;
		}
		String text = new String(value, StandardCharsets.US_ASCII);
		try {
			return Long.parseLong(text);
		}
		catch (NumberFormatException ex) {
			throw new IllegalStateException("Redis key " + new String(key, StandardCharsets.UTF_8) + " holds '" + text
					+ "', not a watermark (an offset); delete it or fix it", ex);
		}
	}

}
