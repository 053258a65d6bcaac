package io.sawmill.listener;

import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The batch left in flight could not be committed (or the batch polled after it failed before the
 * one in flight was done): neither is committed, and the container seeks back to the first records
 * of both ({@link RedeliverBatchErrorHandler}).
 */
final class InFlightBatchFailedException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final transient List<ConsumerRecord<byte[], byte[]>> inFlight;

	InFlightBatchFailedException(List<ConsumerRecord<byte[], byte[]>> inFlight, RuntimeException cause) {
		super("the batch of " + inFlight.size() + " records in flight was not committed: " + cause, cause);
		this.inFlight = inFlight;
	}

	/** The records of the batch that was in flight, to be polled again. */
	List<ConsumerRecord<byte[], byte[]>> inFlight() {
		return inFlight;
	}
}
