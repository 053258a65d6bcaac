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

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * When a batch could not be written, commits nothing and seeks every partition of the
 * batch back to its first record, so the next poll returns the same records again; when
 * the batch left in flight before it failed too ({@link InFlightBatchFailedException}),
 * back to that batch's first records ({@link Redelivery}: after a backoff that grows
 * while batches keep failing).
 */
final class RedeliverBatchErrorHandler implements CommonErrorHandler {

	private final Redelivery redelivery;

	RedeliverBatchErrorHandler(Redelivery redelivery) {
		this.redelivery = redelivery;
	}

	@Override
	public void handleBatch(Exception thrownException, ConsumerRecords<?, ?> data, Consumer<?, ?> consumer,
			MessageListenerContainer container, Runnable invokeListener) {
		// spring-kafka wraps the listener's exception in one whose message is only
		// "Listener failed".
		Throwable reason = thrownException instanceof ListenerExecutionFailedException
				&& thrownException.getCause() != null ? thrownException.getCause() : thrownException;
		List<ConsumerRecord<?, ?>> records = new ArrayList<>(data.count());
		if (reason instanceof InFlightBatchFailedException inFlight) {
			records.addAll(inFlight.inFlight());
		}
		data.forEach(records::add);
		redelivery.redeliver(consumer, records, false, reason);
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
