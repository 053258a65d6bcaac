package io.sawmill.listener;

import java.util.Collection;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;

/**
 * The container's rebalance listener: before partitions are revoked (also when the consumer
 * closes) or lost, the listener's batch in flight is finished; before they are revoked, the
 * offsets acknowledged on them are committed ({@link OffsetCommits#beforeRevoke}); then another
 * listener, if one was added, is told.
 * <p>
 * Holds each consumer thread's {@link OffsetCommits}; called on the consumer threads only.
 */
final class CommitOnRebalance implements ConsumerAwareRebalanceListener {

	private final ThreadLocal<OffsetCommits> commits;

	/** The listener whose batch in flight is finished first; null until it is created. */
	private volatile PipelineBatchListener listener;

	private volatile ConsumerRebalanceListener next = new ConsumerRebalanceListener() {
		@Override
		public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
		}

		@Override
		public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
		}
	};

	CommitOnRebalance(int batchSize) {
		this.commits = ThreadLocal.withInitial(() -> new OffsetCommits(batchSize));
	}

	/** The calling consumer thread's commits. */
	OffsetCommits commits() {
		return commits.get();
	}

	/** What finishes a batch in flight, before anything else happens to the partitions. */
	void finishFirst(PipelineBatchListener listener) {
		this.listener = listener;
	}

	void alsoNotify(ConsumerRebalanceListener listener) {
		this.next = listener;
	}

	private void finishInFlight(Consumer<?, ?> consumer) {
		PipelineBatchListener batches = listener;
		if (batches != null) {
			batches.finishInFlight(consumer);
		}
	}

	@Override
	public void onPartitionsRevokedBeforeCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		finishInFlight(consumer);
		commits().beforeRevoke(consumer, partitions);
	}

	@Override
	public void onPartitionsRevokedAfterCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		next.onPartitionsRevoked(partitions);
	}

	@Override
	public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		finishInFlight(consumer);
		commits().lost(partitions);
		next.onPartitionsLost(partitions);
	}

	@Override
	public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		next.onPartitionsAssigned(partitions);
	}
}
