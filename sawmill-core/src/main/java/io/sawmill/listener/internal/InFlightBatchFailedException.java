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

import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The batch left in flight could not be committed (or the batch polled after it failed
 * before the one in flight was done): neither is committed, and the container seeks back
 * to the first records of both ({@link RedeliverBatchErrorHandler}).
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
