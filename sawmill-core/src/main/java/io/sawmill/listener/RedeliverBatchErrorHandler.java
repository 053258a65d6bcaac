package io.sawmill.listener;

import java.util.HashMap;
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
 * its first record, so the next poll returns the same records again. The consumer keeps polling,
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
		Map<TopicPartition, Long> firstOffsets = new HashMap<>();
		for (ConsumerRecord<?, ?> record : data) {
			firstOffsets.merge(new TopicPartition(record.topic(), record.partition()), record.offset(), Math::min);
			metrics.records(record.topic(), RecordOutcome.RETRIED, 1);
		}
		firstOffsets.forEach(consumer::seek);
		// spring-kafka wraps the listener's exception in one whose message is only "Listener failed".
		Throwable reason = thrownException instanceof ListenerExecutionFailedException && thrownException.getCause() != null
				? thrownException.getCause() : thrownException;
		log.warn("Batch of {} records not committed; it will be polled again from {}: {}", data.count(), firstOffsets,
				reason.toString());
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
