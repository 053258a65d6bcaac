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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.SawmillMetrics;
import io.sawmill.redis.PipelineResult;
import io.sawmill.redis.TransactionalBatchWriter;
import io.sawmill.redis.TransactionalBatchWriter.Transaction;

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
 * watermarks. A partition whose offsets someone else reset below its watermark is found
 * when it is first seen after its assignment, and replayed or refused
 * ({@link ListenerConfig.OffsetReset}), never skipped silently.
 * <p>
 * Thread-confined: owned by one consumer thread's {@link ExactlyOnce}.
 */
final class AppliedOffsets {

	private static final Logger log = LoggerFactory.getLogger(AppliedOffsets.class);

	private final String group;

	private final TransactionalBatchWriter writer;

	private final ListenerConfig.OffsetReset onReset;

	private final SawmillMetrics metrics;

	private final Map<TopicPartition, Long> watermarks = new HashMap<>();

	/**
	 * Partitions whose start was checked against their watermark since they were assigned
	 * ({@link #split}).
	 */
	private final Set<TopicPartition> started = new HashSet<>();

	/** Partitions refused since they were assigned, so each is reported once. */
	private final Set<TopicPartition> refused = new HashSet<>();

	/**
	 * Records Redis rejected inside an applied transaction, by partition and offset,
	 * until published.
	 */
	private final Map<TopicPartition, Map<Long, DeadLetter>> unpublished = new HashMap<>();

	AppliedOffsets(String group, TransactionalBatchWriter writer, ListenerConfig.OffsetReset onReset,
			SawmillMetrics metrics) {
		this.group = group;
		this.writer = writer;
		this.onReset = onReset;
		this.metrics = metrics;
	}

	/**
	 * What the reset check asks the broker, through the consumer that polled the batch.
	 */
	interface Broker {

		/** The group's committed offsets of {@code partitions}; none where nothing is. */
		Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions);

		/** The end offsets of {@code partitions}. */
		Map<TopicPartition, Long> endOffsets(Set<TopicPartition> partitions);

		static Broker of(Consumer<?, ?> consumer) {
			return new Broker() {
				@Override
				public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
					Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>(consumer.committed(partitions));
					committed.values().removeIf(Objects::isNull);
					return committed;
				}

				@Override
				public Map<TopicPartition, Long> endOffsets(Set<TopicPartition> partitions) {
					return consumer.endOffsets(partitions);
				}
			};
		}

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
	 * below their partition's watermark); reads the watermarks not cached first. A
	 * partition seen for the first time since it was assigned whose records start below
	 * its watermark is checked: its offsets were reset, and it follows
	 * {@link ListenerConfig.OffsetReset}, when the offset it starts from was committed
	 * without Sawmill's metadata (a group reset), or when nothing is committed and its
	 * watermark is past the partition's end (a re-created topic). Nothing committed and a
	 * watermark within the log is the previous owner's batch that applied but was never
	 * committed: its records are duplicates.
	 * @param broker the consumer's committed and end offsets
	 * @throws RuntimeException when Redis does not answer, or a reset partition is
	 * refused: nothing may be written
	 */
	Split split(List<MappedRecord> records, Broker broker) {
		Map<TopicPartition, Long> firstOffsets = new LinkedHashMap<>();
		for (MappedRecord record : records) {
			firstOffsets.putIfAbsent(PartitionTransactions.partitionOf(record.record()), record.record().offset());
		}
		List<TopicPartition> missing = new ArrayList<>();
		firstOffsets.keySet().forEach(partition -> {
			if (!watermarks.containsKey(partition)) {
				missing.add(partition);
			}
		});
		if (!missing.isEmpty()) {
			List<byte[]> keys = new ArrayList<>(missing.size());
			missing.forEach(partition -> keys.add(key(partition)));
			List<byte[]> values = writer.read(keys);
			for (int i = 0; i < missing.size(); i++) {
				watermarks.put(missing.get(i), parse(values.get(i), keys.get(i)));
			}
		}
		checkStarts(firstOffsets, broker);
		return split(records, watermarks);
	}

	/**
	 * Checks each partition not yet {@link #started} whose first record is below its
	 * watermark, by the offset committed for it (and its end offset, when none is).
	 */
	private void checkStarts(Map<TopicPartition, Long> firstOffsets, Broker broker) {
		Map<TopicPartition, Long> below = new LinkedHashMap<>();
		firstOffsets.forEach((partition, first) -> {
			if (!started.contains(partition)) {
				if (first < watermarks.getOrDefault(partition, 0L)) {
					below.put(partition, first);
				}
				else {
					started.add(partition);
				}
			}
		});
		if (below.isEmpty()) {
			return;
		}
		Map<TopicPartition, OffsetAndMetadata> offsets = broker.committed(below.keySet());
		Set<TopicPartition> uncommitted = new HashSet<>(below.keySet());
		uncommitted.removeAll(offsets.keySet());
		Map<TopicPartition, Long> ends = uncommitted.isEmpty() ? Map.of() : broker.endOffsets(uncommitted);
		List<String> refusals = new ArrayList<>(0);
		for (Map.Entry<TopicPartition, Long> start : below.entrySet()) {
			TopicPartition partition = start.getKey();
			OffsetAndMetadata offset = offsets.get(partition);
			boolean reset = offset != null ? !OffsetCommits.METADATA.equals(offset.metadata())
					: watermarks.getOrDefault(partition, 0L) > ends.getOrDefault(partition, Long.MAX_VALUE);
			if (!reset) {
				started.add(partition);
				continue;
			}
			String why = resetReason(partition, start.getValue(), offset);
			if (onReset == ListenerConfig.OffsetReset.REPLAY) {
				replay(partition, start.getValue(), why);
			}
			else {
				refuse(partition, start.getValue(), why);
				refusals.add(why);
			}
		}
		if (!refusals.isEmpty()) {
			throw new IllegalStateException(String.join("; ", refusals) + ": refused (sawmill.offset-reset=refuse)");
		}
	}

	private String resetReason(TopicPartition partition, long from, @Nullable OffsetAndMetadata committed) {
		return "partition " + partition + " starts at offset " + from + ", below its watermark "
				+ watermarks.getOrDefault(partition, 0L) + " in Redis ("
				+ new String(key(partition), StandardCharsets.UTF_8) + "), from "
				+ (committed == null
						? "no committed offset, and the watermark is past the partition's end (a re-created topic)"
						: "an offset Sawmill did not commit (a group reset)");
	}

	/** Reports a refused partition, once per assignment. */
	private void refuse(TopicPartition partition, long from, String why) {
		if (refused.add(partition)) {
			metrics.offsetReset("refused");
			log.error(
					"{}: refused (sawmill.offset-reset=refuse). Reset the group's offsets to {} or later, or "
							+ "delete the watermark key to replay from {}",
					why, watermarks.getOrDefault(partition, 0L), from);
		}
	}

	/**
	 * Moves the watermark of {@code partition}, reset by others, back to {@code from}, so
	 * its records are written again.
	 */
	private void replay(TopicPartition partition, long from, String why) {
		long watermark = watermarks.getOrDefault(partition, 0L);
		byte[] key = key(partition);
		PipelineResult result = writer
			.sendTransactions(List.of(new Transaction(key, watermark,
					List.of(RedisWrite.command("SET", key, Long.toString(from).getBytes(StandardCharsets.US_ASCII))))))
			.await();
		if (!result.succeeded()) {
			watermarks.remove(partition);
			throw new IllegalStateException(
					why + ": its watermark could not be moved back: " + result.failures().get(0).cause(),
					result.failures().get(0).cause());
		}
		watermarks.put(partition, from);
		started.add(partition);
		metrics.offsetReset("replayed");
		log.warn("{}: replayed (sawmill.offset-reset=replay): the watermark is moved back to {}, and every record "
				+ "from there on is written again", why, from);
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
		started.removeAll(partitions);
		refused.removeAll(partitions);
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
