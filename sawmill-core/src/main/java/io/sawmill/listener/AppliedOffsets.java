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
package io.sawmill.listener;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.redis.TransactionalBatchWriter;

/**
 * What one consumer thread knows of its partitions' progress in Redis with
 * {@link Delivery#EXACTLY_ONCE}: each partition's watermark, the offset after the last
 * record whose writes Redis applied, kept in Redis under {@link #key} and cached here;
 * and the records whose transaction applied but whose own write failed, until their dead
 * letters are published.
 * <p>
 * A partition's watermark is read from Redis (one {@code MGET} for all partitions of a
 * batch that have none cached) on the thread's own connection, after every batch it sent
 * there: when the thread first sees the partition, and after a batch of the partition
 * failed, whose transaction may or may not have applied ({@link #forget}). Revoked and
 * lost partitions are forgotten too ({@link #revoked}): the next owner may move their
 * watermarks.
 * <p>
 * Thread-confined: owned by one consumer thread's {@link ExactlyOnce}.
 */
final class AppliedOffsets {

	private final String group;

	private final TransactionalBatchWriter writer;

	private final Map<TopicPartition, Long> watermarks = new HashMap<>();

	/**
	 * Records Redis rejected inside an applied transaction, by partition and offset,
	 * until published.
	 */
	private final Map<TopicPartition, Map<Long, DeadLetter>> unpublished = new HashMap<>();

	AppliedOffsets(String group, TransactionalBatchWriter writer) {
		this.group = group;
		this.writer = writer;
	}

	/**
	 * The key of a partition's watermark:
	 * {@code sawmill:applied:{<group>}:<topic>:<partition>}. The consumer group is part
	 * of it, so two groups reading the same topic keep their own.
	 */
	static byte[] key(String group, TopicPartition partition) {
		return ("sawmill:applied:{" + group + "}:" + partition.topic() + ":" + partition.partition())
			.getBytes(StandardCharsets.UTF_8);
	}

	byte[] key(TopicPartition partition) {
		return key(group, partition);
	}

	/**
	 * The records to write and those whose writes Redis applied before (their offset is
	 * below their partition's watermark); reads the watermarks not cached first.
	 * @throws RuntimeException when Redis does not answer: nothing may be written
	 */
	Split split(List<MappedRecord> records) {
		Set<TopicPartition> missing = new LinkedHashSet<>();
		for (MappedRecord record : records) {
			TopicPartition partition = PartitionTransactions.partitionOf(record.record());
			if (!watermarks.containsKey(partition)) {
				missing.add(partition);
			}
		}
		if (!missing.isEmpty()) {
			List<TopicPartition> partitions = List.copyOf(missing);
			List<byte[]> keys = new ArrayList<>(partitions.size());
			partitions.forEach(partition -> keys.add(key(partition)));
			List<byte[]> values = writer.read(keys);
			for (int i = 0; i < partitions.size(); i++) {
				watermarks.put(partitions.get(i), parse(values.get(i), keys.get(i)));
			}
		}
		return split(records, watermarks);
	}

	/**
	 * Splits {@code records} by {@code watermarks} (a partition without one has had
	 * nothing applied).
	 */
	static Split split(List<MappedRecord> records, Map<TopicPartition, Long> watermarks) {
		List<MappedRecord> fresh = new ArrayList<>(records.size());
		List<MappedRecord> duplicates = new ArrayList<>(0);
		for (MappedRecord record : records) {
			Long next = watermarks.get(PartitionTransactions.partitionOf(record.record()));
			(next != null && record.record().offset() < next ? duplicates : fresh).add(record);
		}
		return new Split(fresh, duplicates);
	}

	/**
	 * Records split by their partition's watermark.
	 *
	 * @param fresh the records to write, in poll order
	 * @param duplicates the records whose writes Redis applied before
	 */
	record Split(List<MappedRecord> fresh, List<MappedRecord> duplicates) {
	}

	/**
	 * The watermarks known, by partition: every partition of the records {@link #split}
	 * last saw is among them.
	 */
	Map<TopicPartition, Long> watermarks() {
		return Collections.unmodifiableMap(watermarks);
	}

	/** Transactions applied: these partitions' watermarks are now as given. */
	void applied(Map<TopicPartition, Long> next) {
		watermarks.putAll(next);
	}

	/**
	 * These partitions' watermarks are unknown now (their batch failed): read them again
	 * before writing.
	 */
	void forget(Collection<TopicPartition> partitions) {
		watermarks.keySet().removeAll(partitions);
	}

	/**
	 * These partitions are no longer this thread's (revoked or lost): everything known of
	 * them is dropped. A record Redis rejected inside an applied transaction whose dead
	 * letter was not published by then is skipped by the next owner as a duplicate
	 * (docs/reliability.md).
	 */
	void revoked(Collection<TopicPartition> partitions) {
		watermarks.keySet().removeAll(partitions);
		unpublished.keySet().removeAll(partitions);
	}

	/**
	 * Records Redis rejected inside applied transactions: kept until {@link #published},
	 * since they are skipped if they come again.
	 */
	void rejected(List<DeadLetter> deadLetters) {
		for (DeadLetter deadLetter : deadLetters) {
			unpublished.computeIfAbsent(PartitionTransactions.partitionOf(deadLetter.record()), p -> new HashMap<>())
				.put(deadLetter.record().offset(), deadLetter);
		}
	}

	/**
	 * The dead letters kept by {@link #rejected} for records among {@code duplicates}: to
	 * be published again.
	 */
	List<DeadLetter> rejectedAmong(List<MappedRecord> duplicates) {
		if (unpublished.isEmpty()) {
			return List.of();
		}
		List<DeadLetter> again = new ArrayList<>(0);
		for (MappedRecord record : duplicates) {
			Map<Long, DeadLetter> partition = unpublished.get(PartitionTransactions.partitionOf(record.record()));
			DeadLetter deadLetter = partition != null ? partition.get(record.record().offset()) : null;
			if (deadLetter != null) {
				again.add(new DeadLetter(record.record(), deadLetter.reason(), deadLetter.cause()));
			}
		}
		return again;
	}

	/** The batch holding these dead letters was committed: they need not be kept. */
	void published(List<DeadLetter> deadLetters) {
		for (DeadLetter deadLetter : deadLetters) {
			Map<Long, DeadLetter> partition = unpublished.get(PartitionTransactions.partitionOf(deadLetter.record()));
			if (partition != null) {
				partition.remove(deadLetter.record().offset());
				if (partition.isEmpty()) {
					unpublished.remove(PartitionTransactions.partitionOf(deadLetter.record()));
				}
			}
		}
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
