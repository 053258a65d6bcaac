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
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sawmill.metrics.RecordOutcome;
import io.sawmill.metrics.internal.SawmillMetrics;

/**
 * Hands a batch that was not committed back to Kafka: seeks each of its partitions back
 * to the batch's first record there and pauses those partitions for a backoff that grows
 * with the consumer thread's consecutive failures ({@link ListenerProgress}), so the same
 * records are polled again, never in a hot loop. The consumer keeps polling meanwhile
 * (its other partitions go on), so a long failure never expires
 * {@code max.poll.interval.ms} or triggers a rebalance.
 * <p>
 * Called on the consumer thread that polled the records.
 */
final class Redelivery {

	private static final Logger log = LoggerFactory.getLogger(Redelivery.class);

	private final ListenerProgress progress;

	private final ContainerPauses pauses;

	private final SawmillMetrics metrics;

	Redelivery(ListenerProgress progress, ContainerPauses pauses, SawmillMetrics metrics) {
		this.progress = progress;
		this.pauses = pauses;
		this.metrics = metrics;
	}

	/**
	 * Seeks back to {@code records} and backs off; counts them as retried.
	 * @param assignedOnly skip partitions no longer assigned (during a rebalance)
	 * @param reason why the batch was not committed, for the log and the stall report
	 * @return the offsets sought to
	 */
	Map<TopicPartition, Long> redeliver(Consumer<?, ?> consumer, Collection<? extends ConsumerRecord<?, ?>> records,
			boolean assignedOnly, Throwable reason) {
		Map<TopicPartition, Long> firstOffsets = new HashMap<>();
		for (ConsumerRecord<?, ?> record : records) {
			firstOffsets.merge(new TopicPartition(record.topic(), record.partition()), record.offset(), Math::min);
			metrics.records(record.topic(), RecordOutcome.RETRIED, 1);
		}
		if (assignedOnly) {
			firstOffsets.keySet().retainAll(consumer.assignment());
		}
		firstOffsets.forEach(consumer::seek);
		Duration backoff = progress.failed(reason);
		metrics.batchRedelivered();
		pauses.backOff(firstOffsets.keySet(), backoff);
		log.warn("Batch of {} records not committed; it will be polled again from {} in {} ms: {}", records.size(),
				firstOffsets, backoff.toMillis(), reason.toString());
		return firstOffsets;
	}

	/**
	 * The calling consumer thread committed a batch: its next failure backs off from the
	 * initial backoff again.
	 */
	void committed() {
		progress.committed();
	}

}
