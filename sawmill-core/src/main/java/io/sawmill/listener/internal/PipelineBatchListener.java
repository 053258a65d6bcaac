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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.BatchAcknowledgingConsumerAwareMessageListener;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ConsumerSeekAware;
import org.springframework.kafka.support.Acknowledgment;
import org.jspecify.annotations.Nullable;

/**
 * The container's batch listener and rebalance listener: forwards each call to the
 * calling consumer thread's {@link ConsumerLane}, which does the work. Before partitions
 * are revoked (also when the consumer closes) or lost, the lane finishes its batch in
 * flight and commits what it acknowledged on them; then the listeners added with
 * {@link #alsoNotify} are told, in order.
 * <p>
 * Spring's {@link Acknowledgment} is not used: with AckMode {@code MANUAL_IMMEDIATE} and
 * no acknowledgement, the container itself never commits.
 * <p>
 * Shared by all consumer threads of a container; each thread's state is in its own lane.
 */
final class PipelineBatchListener implements BatchAcknowledgingConsumerAwareMessageListener<byte[], byte[]>,
		ConsumerSeekAware, ConsumerAwareRebalanceListener {

	/** The calling consumer thread's lane, created on its first call. */
	private final ThreadLocal<ConsumerLane> lanes;

	/** The listeners added by {@link #alsoNotify}, told in the order they were added. */
	private final List<ConsumerRebalanceListener> next = new CopyOnWriteArrayList<>();

	PipelineBatchListener(Supplier<ConsumerLane> newLane) {
		this.lanes = ThreadLocal.withInitial(newLane);
	}

	void alsoNotify(ConsumerRebalanceListener listener) {
		next.add(listener);
	}

	@Override
	public void onMessage(List<ConsumerRecord<byte[], byte[]>> records, @Nullable Acknowledgment acknowledgment,
			@Nullable Consumer<?, ?> consumer) {
		// a consumer-aware listener is always given its consumer
		lanes.get().poll(records, Objects.requireNonNull(consumer));
	}

	/**
	 * The container is idle (nothing polled for a while): a batch left in flight is
	 * finished now.
	 */
	@Override
	public void onIdleContainer(Map<TopicPartition, Long> assignments, ConsumerSeekCallback callback) {
		lanes.get().idle();
	}

	@Override
	public void onPartitionsRevokedBeforeCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		lanes.get().beforeRevoke(consumer, partitions);
	}

	@Override
	public void onPartitionsRevokedAfterCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		next.forEach(listener -> listener.onPartitionsRevoked(partitions));
	}

	/**
	 * Both interfaces have this callback; the lane's work is done before the commit,
	 * above.
	 */
	@Override
	public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
	}

	@Override
	public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		lanes.get().lost(partitions);
		next.forEach(listener -> listener.onPartitionsLost(partitions));
	}

	@Override
	public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		next.forEach(listener -> listener.onPartitionsAssigned(partitions));
	}

}
