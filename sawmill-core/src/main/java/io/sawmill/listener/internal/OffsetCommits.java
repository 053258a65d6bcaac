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

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the offsets of batches Redis has acknowledged, for one consumer.
 * <p>
 * While the consumer is behind ({@link ConsumerLane} decides), a batch's offsets are
 * committed <em>asynchronously</em>, so the next poll does not wait for the broker. Once
 * it has caught up, the batch's offsets, and every offset committed asynchronously but
 * not yet confirmed, are committed <em>synchronously</em>, so nothing acknowledged stays
 * uncommitted while the topic is quiet. Before partitions are revoked (a rebalance, or
 * closing the consumer), their unconfirmed offsets are committed synchronously too.
 * <p>
 * A failed asynchronous commit is not lost: its offsets stay unconfirmed and go with
 * every later commit until one succeeds. Offsets only grow per partition, and Kafka
 * applies one consumer's commits in order, so sending an offset again never moves a
 * partition back.
 * <p>
 * Either way offsets are committed only after Redis acknowledged the records before them;
 * this class decides only how long the listener waits for the broker.
 * <p>
 * Thread-confined: owned by one consumer thread's {@link ConsumerLane}; Kafka runs the
 * commit callbacks on that thread too.
 */
final class OffsetCommits implements OffsetCommitCallback {

	private static final Logger log = LoggerFactory.getLogger(OffsetCommits.class);

	/**
	 * Offsets sent asynchronously whose success has not been reported yet, by partition.
	 */
	private final Map<TopicPartition, OffsetAndMetadata> unconfirmed = new HashMap<>();

	/**
	 * The metadata of every offset Sawmill commits: an offset committed without it was
	 * committed by someone else (a group reset, another tool), which exactly-once
	 * delivery tells apart ({@link AppliedOffsets}).
	 */
	static final String METADATA = "sawmill";

	/** The offsets to commit for a written batch: each partition's last offset + 1. */
	static Map<TopicPartition, OffsetAndMetadata> nextOffsets(List<ConsumerRecord<byte[], byte[]>> records) {
		Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
		// a poll returns each partition's records together: objects per run of one
		// partition's records
		int run = 0;
		while (run < records.size()) {
			ConsumerRecord<byte[], byte[]> first = records.get(run);
			long highest = first.offset();
			int next = run + 1;
			while (next < records.size() && records.get(next).partition() == first.partition()
					&& records.get(next).topic().equals(first.topic())) {
				highest = Math.max(highest, records.get(next).offset());
				next++;
			}
			offsets.merge(new TopicPartition(first.topic(), first.partition()),
					new OffsetAndMetadata(highest + 1, METADATA), (a, b) -> a.offset() >= b.offset() ? a : b);
			run = next;
		}
		return offsets;
	}

	/**
	 * Commits a batch Redis acknowledged (or dead-lettered) completely.
	 * @param behind whether the consumer was behind when it polled the batch: then
	 * asynchronously
	 * @throws org.apache.kafka.common.KafkaException when a synchronous commit fails: the
	 * batch is then handled as not written, and polled again
	 */
	void commit(Consumer<?, ?> consumer, List<ConsumerRecord<byte[], byte[]>> records, boolean behind) {
		Map<TopicPartition, OffsetAndMetadata> offsets = nextOffsets(records);
		if (behind) {
			unconfirmed.putAll(offsets);
			Map<TopicPartition, OffsetAndMetadata> all = owned(consumer, unconfirmed);
			if (!all.isEmpty()) {
				consumer.commitAsync(all, this);
			}
		}
		else {
			Map<TopicPartition, OffsetAndMetadata> all = new HashMap<>(unconfirmed);
			all.putAll(offsets);
			commitSync(consumer, owned(consumer, all));
		}
	}

	/**
	 * Before {@code partitions} are revoked: commit what was acknowledged there but not
	 * confirmed.
	 */
	void beforeRevoke(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		Map<TopicPartition, OffsetAndMetadata> pending = new HashMap<>();
		partitions.forEach(partition -> {
			OffsetAndMetadata offset = unconfirmed.get(partition);
			if (offset != null) {
				pending.put(partition, offset);
			}
		});
		try {
			commitSync(consumer, owned(consumer, pending));
		}
		catch (RuntimeException ex) {
			log.warn("Committing offsets {} before giving up their partitions failed ({}); the next owner writes "
					+ "the records after the last commit again", pending, ex.toString());
		}
		unconfirmed.keySet().removeAll(partitions);
	}

	/**
	 * Partitions taken away without a chance to commit: their offsets are no longer ours
	 * to commit.
	 */
	void lost(Collection<TopicPartition> partitions) {
		unconfirmed.keySet().removeAll(partitions);
	}

	@Override
	public void onComplete(Map<TopicPartition, OffsetAndMetadata> offsets, Exception exception) {
		if (exception == null) {
			// only if nothing newer was sent for the partition since
			offsets.forEach(unconfirmed::remove);
		}
		else if (exception instanceof RetriableException || exception instanceof RebalanceInProgressException) {
			// expected during a rebalance or a coordinator move
			log.info("Committing offsets {} failed ({}); they are sent again with the next commit", offsets,
					exception.toString());
		}
		else {
			log.warn("Committing offsets {} failed ({}); they are sent again with the next commit", offsets,
					exception.toString());
		}
	}

	private void commitSync(Consumer<?, ?> consumer, Map<TopicPartition, OffsetAndMetadata> offsets) {
		if (offsets.isEmpty()) {
			return;
		}
		consumer.commitSync(offsets); // within the consumer's default.api.timeout.ms
		offsets.forEach(unconfirmed::remove);
	}

	private static Map<TopicPartition, OffsetAndMetadata> owned(Consumer<?, ?> consumer,
			Map<TopicPartition, OffsetAndMetadata> offsets) {
		Map<TopicPartition, OffsetAndMetadata> owned = new HashMap<>(offsets);
		owned.keySet().retainAll(consumer.assignment());
		return owned;
	}

}
