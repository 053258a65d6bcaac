package io.sawmill.listener;

import java.util.List;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One polled batch on its way through the data path: its records, what the map step made of them,
 * and the consumer that polled them. Immutable; on the consumer thread that polled it.
 *
 * @param records the records as polled
 * @param mapped the map step's result ({@link MappedBatch})
 * @param consumer the consumer that polled them, which commits their offsets
 * @param behind whether the batch was full ({@code max.poll.records}): the consumer was behind
 * @param polledNanos when it was polled, as {@link System#nanoTime()}
 */
record PolledBatch(List<ConsumerRecord<byte[], byte[]>> records, MappedBatch mapped, Consumer<?, ?> consumer,
		boolean behind, long polledNanos) {

	/** The records with writes, in poll order (so per partition in offset order). */
	List<MappedRecord> toWrite() {
		return mapped.toWrite();
	}
}
