package io.sawmill.metrics;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;

/**
 * Reads the timestamp of the oldest record still to be committed, per partition: the first record
 * at or after the committed offset. {@link PartitionLagMonitor} turns it into lag in seconds.
 * <p>
 * Called from the lag monitor's thread only.
 */
@FunctionalInterface
public interface RecordTimestamps extends AutoCloseable {

	/**
	 * @param from per partition, the offset to read from (the committed offset)
	 * @param end per partition, the log-end offset; a partition whose records from {@code from} on are
	 *     all gone (compacted, transaction markers) reaches it without a record
	 * @param timeout how long to wait for the records
	 * @return per partition, the timestamp in epoch milliseconds of the first record at or after
	 *     {@code from}; partitions that reached {@code end} without a record, or whose record did not
	 *     arrive within the timeout, are absent
	 */
	Map<TopicPartition, Long> firstTimestamps(Map<TopicPartition, Long> from, Map<TopicPartition, Long> end,
			Duration timeout);

	@Override
	default void close() {
	}
}
