package io.sawmill.listener;

import java.util.Collection;
import java.util.function.Function;

import org.apache.kafka.common.TopicPartition;

/**
 * {@link Delivery#EXACTLY_ONCE}: each batch is written by the {@link TransactionalPipeline} and
 * finished in the call that polled it, never left in flight: a later transaction of a partition
 * must never apply after an earlier one failed without applying. Owns the thread's watermarks
 * ({@link AppliedOffsets}) and forgets those of partitions revoked or lost.
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

	/** This mode for each consumer thread's {@link BatchCommit}, writing through {@code pipeline}. */
	static Function<BatchCommit, DeliveryMode> with(TransactionalPipeline pipeline) {
		return commit -> new ExactlyOnce(pipeline, commit);
	}

	/**
	 * Writes the batch's records not applied before, then dead-letters what cannot be written,
	 * commits the batch and counts its outcomes.
	 */
	@Override
	public void write(PolledBatch batch) {
		BatchOutcomes written = pipeline.write(batch.toWrite(), applied);
		commit.commit(batch, written);
		applied.published(written.deadLetters());
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
