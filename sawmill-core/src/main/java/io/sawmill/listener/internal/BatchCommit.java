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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.metrics.internal.SawmillMetrics;

/**
 * The last steps of a batch whose writes are done: dead-letter what could not be written,
 * commit the batch's offsets ({@link OffsetCommits}), count every record's outcome. A
 * {@link DeliveryMode} calls {@link #commit} once it knows each record's outcome; the
 * lane calls the rebalance steps.
 * <p>
 * Thread-confined: one per consumer thread, owned by its {@link ConsumerLane}.
 */
final class BatchCommit {

	private final DeadLetterPublisher deadLetters;

	private final SawmillMetrics metrics;

	private final Redelivery redelivery;

	private final OffsetCommits commits = new OffsetCommits();

	BatchCommit(DeadLetterPublisher deadLetters, SawmillMetrics metrics, Redelivery redelivery) {
		this.deadLetters = deadLetters;
		this.metrics = metrics;
		this.redelivery = redelivery;
	}

	/**
	 * Publishes the batch's dead letters (the map step's and Redis'), commits its offsets
	 * and counts its records' outcomes.
	 * @throws RuntimeException what the dead-letter publisher or the commit threw: the
	 * batch is not committed
	 */
	void commit(PolledBatch batch, BatchOutcomes outcomes) {
		List<DeadLetter> all = new ArrayList<>(batch.mapped().rejected());
		all.addAll(outcomes.deadLetters());
		deadLetters.publish(all);
		commits.commit(batch.consumer(), batch.records(), batch.behind());
		redelivery.committed();
		metrics.batchCommitted(Duration.ofNanos(System.nanoTime() - batch.polledNanos()), batch.records().size());
		batch.mapped().report(metrics, outcomes, deadLetters.outcome());
	}

	/**
	 * Before {@code partitions} are revoked: their offsets not yet confirmed are
	 * committed now.
	 */
	void beforeRevoke(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		commits.beforeRevoke(consumer, partitions);
	}

	/** {@code partitions} were taken away without a chance to commit. */
	void lost(Collection<TopicPartition> partitions) {
		commits.lost(partitions);
	}

}
