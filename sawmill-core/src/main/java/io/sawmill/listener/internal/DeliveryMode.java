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

import org.apache.kafka.common.TopicPartition;

import io.sawmill.listener.Delivery;

/**
 * How a mapped batch is written to Redis and when it is committed: one implementation per
 * {@link Delivery}, {@link AtLeastOnce} and {@link ExactlyOnce}. Each hands every batch
 * it finishes to the thread's {@link BatchCommit} with each record's outcome
 * ({@link BatchOutcomes}), and commits a batch only once every record of it is in Redis,
 * dead-lettered or skipped.
 * <p>
 * Thread-confined: one instance per consumer thread, called by its {@link ConsumerLane}
 * only.
 */
interface DeliveryMode {

	/**
	 * Writes a polled batch and finishes it, in this call or (if the mode keeps a batch
	 * in flight) in a later one.
	 * @throws RuntimeException when a batch cannot be committed: nothing of it is
	 * committed, and the exception says which records to poll again
	 * ({@link InFlightBatchFailedException} for a batch kept in flight before, otherwise
	 * {@code batch})
	 */
	void write(PolledBatch batch);

	/**
	 * Finishes a batch kept in flight, if any: before partitions are revoked or lost,
	 * when the consumer closes, when the container is idle. If it cannot be committed,
	 * its partitions still assigned to the consumer that polled it are sought back to it,
	 * so it is polled again.
	 */
	void finishInFlight();

	/**
	 * {@code partitions} are no longer this thread's (revoked or lost): what the mode
	 * knows of them is dropped.
	 */
	void forget(Collection<TopicPartition> partitions);

}
