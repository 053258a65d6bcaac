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

import org.jspecify.annotations.Nullable;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.listener.Delivery;
import io.sawmill.redis.internal.FailureClass;

/**
 * Blame by elimination over the attempts of one batch within a poll, with
 * {@link Delivery#AT_LEAST_ONCE}: a record whose write fails with the same
 * {@link FailureClass#blamable} reply in every attempt, while the first attempt wrote
 * other records of the batch, is the record's own problem and not Redis': once the
 * retries are used up it is dead-lettered with the reply as its reason, rather than
 * holding the batch (and, through the circuit breaker, the container) forever. A reply
 * that every record gets (a Redis-wide error) blames nobody: then no record was written.
 * <p>
 * Pure bookkeeping of {@link Outcomes}; one instance per batch, on the thread that writes
 * it.
 */
final class Elimination {

	/**
	 * Each suspect: a record that failed with the same blamable reply in every attempt so
	 * far, by identity, with that reply.
	 */
	private final Map<MappedRecord, String> suspects = new IdentityHashMap<>();

	private boolean othersWritten;

	private int attempts;

	/** Notes one attempt's outcomes, in order, the batch's first round trip first. */
	void attempt(Outcomes attempt) {
		attempts++;
		if (attempts == 1) {
			othersWritten = attempt.anyWritten();
		}
		if (!attempt.hasTransientFailures()) {
			suspects.clear();
			return;
		}
		Map<MappedRecord, String> still = new IdentityHashMap<>();
		for (int i = 0; i < attempt.retry().size(); i++) {
			MappedRecord record = attempt.retry().get(i);
			Throwable cause = attempt.retryCause(i);
			if (cause == null || !FailureClass.blamable(cause)) {
				continue;
			}
			String reply = String.valueOf(cause.getMessage());
			if (attempts == 1 || reply.equals(suspects.get(record))) {
				still.put(record, reply);
			}
		}
		suspects.clear();
		suspects.putAll(still);
	}

	/**
	 * Whether every remaining failure of the last attempt ({@code last}) is a suspect's
	 * (the records taken along behind them aside), after at least two attempts, with
	 * other records written: then the suspects are {@link #blamed}.
	 */
	boolean settles(Outcomes last) {
		if (!othersWritten || attempts < 2 || suspects.isEmpty()) {
			return false;
		}
		for (int i = 0; i < last.retry().size(); i++) {
			if (last.retryCause(i) != null && !suspects.containsKey(last.retry().get(i))) {
				return false;
			}
		}
		return true;
	}

	/** The suspects of the last attempt, as dead letters with their reply. */
	List<DeadLetter> blamed(Outcomes last) {
		List<DeadLetter> blamed = new ArrayList<>(suspects.size());
		for (int i = 0; i < last.retry().size(); i++) {
			MappedRecord record = last.retry().get(i);
			String reply = suspects.get(record);
			Throwable cause = last.retryCause(i);
			if (reply != null && cause != null) {
				blamed.add(
						new DeadLetter(record.record(),
								"Redis rejected a write with the same reply in all " + attempts
										+ " attempts while the other records of its batch were written: " + reply,
								cause));
			}
		}
		return blamed;
	}

	/**
	 * The records of the last attempt taken along behind a suspect for per-key order:
	 * written after the suspects are dead-lettered.
	 */
	List<MappedRecord> followers(Outcomes last) {
		List<MappedRecord> followers = new ArrayList<>(0);
		for (int i = 0; i < last.retry().size(); i++) {
			if (last.retryCause(i) == null) {
				followers.add(last.retry().get(i));
			}
		}
		return followers;
	}

	/**
	 * Whether every failure of a retry's outcomes is a suspect's: the round trip is not
	 * Redis' failure, and the circuit breaker does not count it.
	 */
	boolean onlySuspectsFailed(Outcomes attempt) {
		if (!othersWritten || suspects.isEmpty() || !attempt.hasTransientFailures()) {
			return false;
		}
		for (int i = 0; i < attempt.retry().size(); i++) {
			@Nullable Throwable cause = attempt.retryCause(i);
			if (cause != null && !(suspects.containsKey(attempt.retry().get(i)) && FailureClass.blamable(cause))) {
				return false;
			}
		}
		return true;
	}

}
