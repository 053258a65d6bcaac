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
import java.util.function.Function;

import org.apache.kafka.common.TopicPartition;

import io.sawmill.listener.Delivery;

/**
 * {@link Delivery#EXACTLY_ONCE}: each batch is written by the
 * {@link TransactionalPipeline} and finished in the call that polled it, never left in
 * flight: a later transaction of a partition must never apply after an earlier one failed
 * without applying. Owns the thread's watermarks ({@link AppliedOffsets}) and forgets
 * those of partitions revoked or lost.
 * <p>
 * Thread-confined: one instance per consumer thread.
 */
final class ExactlyOnce implements DeliveryMode {

	private final TransactionalPipeline pipeline;

	private final AppliedOffsets applied;

	private final BatchCommit commit;

	ExactlyOnce(TransactionalPipeline pipeline, BatchCommit commit) {
		this.pipeline = pipeline;
		this.applied = pipeline.newAppliedOffsets();
		this.commit = commit;
	}

	/**
	 * This mode for each consumer thread's {@link BatchCommit}, writing through
	 * {@code pipeline}.
	 */
	static Function<BatchCommit, DeliveryMode> with(TransactionalPipeline pipeline) {
		return commit -> new ExactlyOnce(pipeline, commit);
	}

	/**
	 * Writes the batch's records not applied before, then dead-letters what cannot be
	 * written, commits the batch and counts its outcomes.
	 */
	@Override
	public void write(PolledBatch batch) {
		BatchOutcomes written = pipeline.write(batch.toWrite(), applied, OffsetResets.Broker.of(batch.consumer()));
		commit.commit(batch, written);
		applied.unpublished().published(written.deadLetters());
	}

	@Override
	public void finishInFlight() {
		// every batch was finished in the call that polled it
	}

	@Override
	public void forget(Collection<TopicPartition> partitions) {
		applied.revoked(partitions);
	}

}
