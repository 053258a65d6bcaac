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
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.metrics.RecordOutcome;

/**
 * What the write step did to each record of one batch, over all its round trips: one
 * {@link RecordOutcome} per record that was not simply written, and the dead letters of
 * the records Redis rejected. A record of the batch not named here was written. Filled by
 * the batch's {@link DeliveryMode} from each round trip's {@link Outcomes}, then read by
 * {@link BatchCommit}.
 * <p>
 * Thread-confined: one per batch, on the consumer thread that polled it.
 */
final class BatchOutcomes {

	private final Map<ConsumerRecord<byte[], byte[]>, RecordOutcome> notWritten = new IdentityHashMap<>(0);

	private final List<DeadLetter> deadLetters = new ArrayList<>(0);

	/**
	 * Takes a round trip's final outcomes: its stale records and its dead letters.
	 * Records to send again have no outcome yet; a later round trip gives them theirs.
	 */
	void add(Outcomes roundTrip) {
		roundTrip.forEach(RecordOutcome.STALE, record -> notWritten.put(record.record(), RecordOutcome.STALE));
		roundTrip.permanent().forEach(this::deadLetter);
	}

	/** A record whose writes Redis applied before: not written again. */
	void duplicate(ConsumerRecord<byte[], byte[]> record) {
		notWritten.putIfAbsent(record, RecordOutcome.DUPLICATE);
	}

	/** A record Redis rejected: dead-lettered with its reason, whatever else it was. */
	void deadLetter(DeadLetter deadLetter) {
		notWritten.put(deadLetter.record(), RecordOutcome.DEAD_LETTERED);
		deadLetters.add(deadLetter);
	}

	/** The outcome of one of the batch's records with writes. */
	RecordOutcome of(ConsumerRecord<byte[], byte[]> record) {
		return notWritten.isEmpty() ? RecordOutcome.WRITTEN : notWritten.getOrDefault(record, RecordOutcome.WRITTEN);
	}

	/** The records Redis rejected, as dead letters, in the order they were found. */
	List<DeadLetter> deadLetters() {
		return deadLetters;
	}

}
