package io.sawmill.listener;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.kafka.listener.MessageListenerContainer;

import io.sawmill.metrics.RecordOutcome;
import io.sawmill.metrics.SawmillMetrics;

/**
 * When a batch could not be written, commits nothing and seeks every partition of the batch back to
 * its first record, so the next poll returns the same records again; when the batch left in
 * flight before it failed too ({@link InFlightBatchFailedException}), back to that batch's first
 * records. The consumer keeps polling,
 * so a Redis outage never expires {@code max.poll.interval.ms} or triggers a rebalance.
 */
final class RedeliverBatchErrorHandler implements CommonErrorHandler {

	private static final Logger log = LoggerFactory.getLogger(RedeliverBatchErrorHandler.class);

	private final SawmillMetrics metrics;

	RedeliverBatchErrorHandler(SawmillMetrics metrics) {
		this.metrics = metrics;
	}

	@Override
	public void handleBatch(Exception thrownException, ConsumerRecords<?, ?> data, Consumer<?, ?> consumer,
			MessageListenerContainer container, Runnable invokeListener) {
		// spring-kafka wraps the listener's exception in one whose message is only "Listener failed".
		Throwable reason = thrownException instanceof ListenerExecutionFailedException && thrownException.getCause() != null
				? thrownException.getCause() : thrownException;
		List<ConsumerRecord<?, ?>> records = new ArrayList<>(data.count());
		if (reason instanceof InFlightBatchFailedException inFlight) {
			records.addAll(inFlight.inFlight());
		}
		data.forEach(records::add);
		Map<TopicPartition, Long> firstOffsets = seekBack(consumer, records, metrics, false);
		log.warn("Batch of {} records not committed; it will be polled again from {}: {}", records.size(), firstOffsets,
				reason.toString());
	}

	/**
	 * Seeks each partition of {@code records} back to its first record there, and counts the records
	 * as retried.
	 * @param assignedOnly skip partitions no longer assigned (during a rebalance)
	 * @return the offsets sought to
	 */
	static Map<TopicPartition, Long> seekBack(Consumer<?, ?> consumer, Collection<? extends ConsumerRecord<?, ?>> records,
			SawmillMetrics metrics, boolean assignedOnly) {
		Map<TopicPartition, Long> firstOffsets = new HashMap<>();
		for (ConsumerRecord<?, ?> record : records) {
			firstOffsets.merge(new TopicPartition(record.topic(), record.partition()), record.offset(), Math::min);
			metrics.records(record.topic(), RecordOutcome.RETRIED, 1);
		}
		if (assignedOnly) {
			firstOffsets.keySet().retainAll(consumer.assignment());
		}
		firstOffsets.forEach(consumer::seek);
		return firstOffsets;
	}

	/** Nothing of a failed batch is committed. */
	@Override
	public boolean isAckAfterHandle() {
		return false;
	}

	@Override
	public boolean seeksAfterHandling() {
		return true;
	}
}
