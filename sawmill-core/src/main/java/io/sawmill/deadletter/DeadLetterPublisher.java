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
package io.sawmill.deadletter;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sawmill.metrics.RecordOutcome;

/**
 * Sends records that cannot be written to Redis somewhere they are kept with their
 * reason.
 * <p>
 * The guarantee: when {@link #publish} returns normally, every given dead letter has been
 * acknowledged by its destination; only then is the batch committed. When it throws, none
 * of the batch is committed and the batch is polled again (so a dead letter may be
 * published twice, never zero times). It is called once per batch, right before the
 * batch's commit, with an empty list when the batch has no dead letters, so a publisher
 * can hold back any commit (the dead-letter brake does). Called from listener threads;
 * implementations must be thread-safe.
 */
public interface DeadLetterPublisher {

	/**
	 * @throws DeadLetterPublishException when the dead letters could not all be published
	 * after the publisher's own retries
	 */
	void publish(List<DeadLetter> deadLetters);

	/** How the records given to this publisher are counted in {@code sawmill.records}. */
	default RecordOutcome outcome() {
		return RecordOutcome.DEAD_LETTERED;
	}

	/**
	 * For {@code sawmill.dead-letter.enabled=false}: every dead letter is logged at ERROR
	 * with its topic, partition, offset and reason, counted as {@code invalid}, and
	 * committed.
	 */
	static DeadLetterPublisher loggingOnly() {
		Logger log = LoggerFactory.getLogger(DeadLetterPublisher.class);
		return new DeadLetterPublisher() {

			@Override
			public void publish(List<DeadLetter> deadLetters) {
				for (DeadLetter deadLetter : deadLetters) {
					log.error(
							"Record {}-{}@{} not written and not dead-lettered (sawmill.dead-letter.enabled=false): {}",
							deadLetter.record().topic(), deadLetter.record().partition(), deadLetter.record().offset(),
							deadLetter.reason());
				}
			}

			@Override
			public RecordOutcome outcome() {
				return RecordOutcome.INVALID;
			}
		};
	}

}
