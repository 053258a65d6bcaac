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

import java.util.ArrayList;
import java.util.Collection;
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

import io.sawmill.listener.OffsetReset;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.TransactionalBatchWriter.Keyspace;

/**
 * Finds the partitions whose offsets someone else reset below what Sawmill applied, when
 * each is first seen after its assignment, so that {@link AppliedOffsets} replays or
 * refuses them ({@link OffsetReset}) instead of skipping their records silently. Sawmill
 * commits every offset with {@link OffsetCommits#METADATA}; a partition is reset when:
 * <ul>
 * <li>it starts from an offset committed without that metadata (a group reset, e.g.
 * {@code kafka-consumer-groups --reset-offsets}): on one server when one of its records
 * is below its watermark, on a Redis Cluster always, since its watermarks are spread over
 * the slots and a batch sees only those it writes to;</li>
 * <li>nothing is committed for it and a watermark its batch sees is past the partition's
 * end (a re-created topic). Nothing committed and a watermark within the log is the
 * previous owner's batch that applied but was never committed: its records are
 * duplicates.</li>
 * </ul>
 * Reports each reset in the log and {@code sawmill.offset.resets}.
 * <p>
 * Thread-confined: owned by one consumer thread's {@link AppliedOffsets}.
 */
final class OffsetResets {

	private static final Logger log = LoggerFactory.getLogger(OffsetResets.class);

	private final OffsetReset onReset;

	private final SawmillMetrics metrics;

	/** Partitions checked since they were assigned. */
	private final Set<TopicPartition> started = new HashSet<>();

	/** Partitions refused since they were assigned, so each is reported once. */
	private final Set<TopicPartition> refused = new HashSet<>();

	OffsetResets(OffsetReset onReset, SawmillMetrics metrics) {
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
	 * How a partition's records of a batch stand against the watermarks they meet.
	 *
	 * @param first the offset of its first record
	 * @param below whether one of its records is below its watermark
	 * @param highest the highest of the watermarks its records meet
	 */
	record Start(long first, boolean below, long highest) {
	}

	/**
	 * A partition reset by someone else.
	 *
	 * @param partition the partition
	 * @param from the offset it starts from
	 * @param why what was found, for the log
	 */
	record Reset(TopicPartition partition, long from, String why) {
	}

	/** Whether {@code partition} was checked since it was assigned. */
	boolean started(TopicPartition partition) {
		return started.contains(partition);
	}

	/**
	 * Checks the partitions not yet {@link #started}.
	 * @param starts how each partition of the batch starts
	 * @param keys the key of each partition's watermark, named in the log (on a Redis
	 * Cluster, of its generation)
	 * @return the partitions reset, to be replayed or refused
	 */
	List<Reset> check(Map<TopicPartition, Start> starts, Broker broker, Keyspace keyspace,
			Map<TopicPartition, String> keys) {
		Map<TopicPartition, Start> suspects = new LinkedHashMap<>();
		starts.forEach((partition, start) -> {
			if (!started.contains(partition)) {
				if (start.below() || keyspace == Keyspace.CLUSTER) {
					suspects.put(partition, start);
				}
				else {
					started.add(partition);
				}
			}
		});
		if (suspects.isEmpty()) {
			return List.of();
		}
		Map<TopicPartition, OffsetAndMetadata> offsets = broker.committed(suspects.keySet());
		Set<TopicPartition> uncommitted = new HashSet<>(suspects.keySet());
		uncommitted.removeAll(offsets.keySet());
		Map<TopicPartition, Long> ends = uncommitted.isEmpty() ? Map.of() : broker.endOffsets(uncommitted);
		List<Reset> resets = new ArrayList<>(0);
		suspects.forEach((partition, start) -> {
			OffsetAndMetadata offset = offsets.get(partition);
			boolean reset = offset != null ? !OffsetCommits.METADATA.equals(offset.metadata())
					: start.highest() > ends.getOrDefault(partition, Long.MAX_VALUE);
			if (reset) {
				resets.add(new Reset(partition, start.first(), reason(partition, start, offset, keys.get(partition))));
			}
			else {
				started.add(partition);
			}
		});
		return resets;
	}

	private static String reason(TopicPartition partition, Start start, @Nullable OffsetAndMetadata committed,
			@Nullable String key) {
		return "partition " + partition + " starts at offset " + start.first()
				+ (start.below() ? ", below its watermark " + start.highest() + " in Redis (" + key + "), from "
						: " (its highest watermark in Redis is " + start.highest() + ", " + key + "), from ")
				+ (committed == null
						? "no committed offset, and a watermark past the partition's end (a re-created topic)"
						: "an offset Sawmill did not commit (a group reset)");
	}

	/** The policy for the resets {@link #check} found. */
	OffsetReset policy() {
		return onReset;
	}

	/** {@code reset} was replayed: its records are written again. */
	void replayed(Reset reset, String how) {
		started.add(reset.partition());
		metrics.offsetReset("replayed");
		log.warn("{}: replayed (sawmill.offset-reset=replay): {}, and every record from offset {} on is written again",
				reset.why(), how, reset.from());
	}

	/** {@code reset} was refused: reported once per assignment. */
	void refused(Reset reset, String fix) {
		if (refused.add(reset.partition())) {
			metrics.offsetReset("refused");
			log.error("{}: refused (sawmill.offset-reset=refuse). {}", reset.why(), fix);
		}
	}

	/**
	 * These partitions are no longer this thread's: checked again when assigned again.
	 */
	void revoked(Collection<TopicPartition> partitions) {
		started.removeAll(partitions);
		refused.removeAll(partitions);
	}

}
