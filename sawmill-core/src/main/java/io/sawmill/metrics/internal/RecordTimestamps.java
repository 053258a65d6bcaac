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
package io.sawmill.metrics.internal;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;

/**
 * Reads the timestamp of the oldest record still to be committed, per partition: the
 * first record at or after the committed offset. {@link PartitionLagMonitor} turns it
 * into lag in seconds.
 * <p>
 * Called from the lag monitor's thread only.
 */
@FunctionalInterface
interface RecordTimestamps extends AutoCloseable {

	/**
	 * @param from per partition, the offset to read from (the committed offset)
	 * @param end per partition, the log-end offset; a partition whose records from
	 * {@code from} on are all gone (compacted, transaction markers) reaches it without a
	 * record
	 * @param timeout how long to wait for the records
	 * @return per partition, the timestamp in epoch milliseconds of the first record at
	 * or after {@code from}; partitions that reached {@code end} without a record, or
	 * whose record did not arrive within the timeout, are absent
	 */
	Map<TopicPartition, Long> firstTimestamps(Map<TopicPartition, Long> from, Map<TopicPartition, Long> end,
			Duration timeout);

	@Override
	default void close() {
	}

}
