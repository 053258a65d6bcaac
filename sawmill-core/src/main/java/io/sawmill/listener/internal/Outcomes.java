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

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.redis.internal.FailureClass;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.TransactionalBatchWriter.FencedException;

/**
 * What one round trip did to each record it carried: one {@link RecordOutcome} per
 * record, {@link RecordOutcome#WRITTEN}, {@link RecordOutcome#STALE},
 * {@link RecordOutcome#RETRIED}, {@link RecordOutcome#FENCED} or
 * {@link RecordOutcome#DEAD_LETTERED}, computed by {@link #of}, the one classifier of
 * every delivery mode: a pure function of the plan and its replies.
 * <p>
 * A failed command fails every record it carries ({@link WritePlan}; with coalescing,
 * every record folded into it). A record with a failure that can succeed when sent again
 * is retried; a record with only failures that cannot is a dead letter; a record whose
 * writes all succeeded is written, or stale when one of them was a version-guarded write
 * that changed nothing ({@link PipelineResult#stale()}). Which failures can succeed when
 * sent again depends on the plan:
 * <ul>
 * <li>Without transactions, the error's {@link FailureClass}. A retried record takes
 * every later record of the round trip that writes one of its keys along, so that per key
 * the writes stay in offset order.</li>
 * <li>With transactions ({@link PartitionTransactions}), whether the transaction applied:
 * its last write failed when it did not apply, or may not have (every record of the
 * transaction is retried, {@link RecordOutcome#FENCED} when its fence refused it); any
 * other failure is a write that failed when its applied transaction ran (e.g.
 * {@code WRONGTYPE}), whatever its class: sending it again would skip it as a
 * duplicate.</li>
 * </ul>
 * The pipelines retry by it and the circuit breaker counts a round trip with records to
 * retry, other than fenced ones, as failed by it ({@link #redisFailed}).
 */
final class Outcomes {

	private final WritePlan plan;

	private final PipelineResult result;

	/**
	 * Each record's outcome, by its index in the plan; null when every record was
	 * written.
	 */
	private final RecordOutcome @Nullable [] outcomes;

	private final List<MappedRecord> retry;

	/**
	 * Why each record of {@link #retry} is sent again, in the same order: its own
	 * failure, or null for a record taken along for per-key order.
	 */
	private final List<@Nullable Throwable> retryCauses;

	private final int fenced;

	private final List<DeadLetter> deadLetters;

	private Outcomes(WritePlan plan, PipelineResult result, RecordOutcome @Nullable [] outcomes,
			List<MappedRecord> retry, List<@Nullable Throwable> retryCauses, int fenced, List<DeadLetter> deadLetters) {
		this.plan = plan;
		this.result = result;
		this.outcomes = outcomes;
		this.retry = retry;
		this.retryCauses = retryCauses;
		this.fenced = fenced;
		this.deadLetters = deadLetters;
	}

	/**
	 * @param plan the round trip's commands and the records each carries
	 * @param result the replies to the plan's commands, in the same order
	 */
	static Outcomes of(WritePlan plan, PipelineResult result) {
		if (result.succeeded() && result.stale().isEmpty()) {
			return new Outcomes(plan, result, null, List.of(), List.of(), 0, List.of());
		}
		List<MappedRecord> records = plan.records();
		Throwable[] retryCause = new Throwable[records.size()];
		Throwable[] rejectCause = new Throwable[records.size()];
		for (PipelineResult.Failure failure : result.failures()) {
			Throwable[] causes = canSucceedAgain(plan, failure) ? retryCause : rejectCause;
			for (int r : plan.carriedBy(failure.index())) {
				if (causes[r] == null) {
					causes[r] = failure.cause();
				}
			}
		}
		RecordOutcome[] outcomes = new RecordOutcome[records.size()];
		Arrays.fill(outcomes, RecordOutcome.WRITTEN);
		for (int index : result.stale()) {
			for (int r : plan.carriedBy(index)) {
				outcomes[r] = RecordOutcome.STALE;
			}
		}
		List<MappedRecord> retry = new ArrayList<>(0);
		List<@Nullable Throwable> retryCauses = new ArrayList<>(0);
		int fenced = 0;
		List<DeadLetter> deadLetters = new ArrayList<>(0);
		Set<ByteBuffer> retriedKeys = new HashSet<>();
		for (int r = 0; r < records.size(); r++) {
			MappedRecord record = records.get(r);
			if (retryCause[r] != null || (!retriedKeys.isEmpty() && writesAnyOf(record, retriedKeys))) {
				boolean fence = retryCause[r] instanceof FencedException;
				outcomes[r] = fence ? RecordOutcome.FENCED : RecordOutcome.RETRIED;
				fenced += fence ? 1 : 0;
				retry.add(record);
				retryCauses.add(retryCause[r]);
				if (!plan.transactional()) {
					record.writes().forEach(write -> retriedKeys.add(ByteBuffer.wrap(write.key())));
				}
			}
			else if (rejectCause[r] != null) {
				outcomes[r] = RecordOutcome.DEAD_LETTERED;
				deadLetters.add(new DeadLetter(record.record(),
						(plan.transactional() ? "Redis rejected a write when its transaction ran: "
								: "Redis rejected a write: ") + rejectCause[r].getMessage(),
						rejectCause[r]));
			}
		}
		return new Outcomes(plan, result, outcomes, retry, retryCauses, fenced, deadLetters);
	}

	private static boolean canSucceedAgain(WritePlan plan, PipelineResult.Failure failure) {
		if (plan.transactional()) {
			return plan.endsTransaction(failure.index());
		}
		return FailureClass.of(failure.cause()) == FailureClass.TRANSIENT;
	}

	/** The round trip's replies. */
	PipelineResult result() {
		return result;
	}

	/** The records to send again, in their original order. */
	List<MappedRecord> retry() {
		return retry;
	}

	/**
	 * Why the {@code i}th record of {@link #retry()} is sent again: its own failure, or
	 * null when it is taken along behind a record that writes one of its keys.
	 */
	@Nullable Throwable retryCause(int i) {
		return retryCauses.get(i);
	}

	/** Whether some record of the round trip was written (or stale). */
	boolean anyWritten() {
		if (outcomes == null) {
			return !plan.records().isEmpty();
		}
		for (RecordOutcome outcome : outcomes) {
			if (outcome == RecordOutcome.WRITTEN || outcome == RecordOutcome.STALE) {
				return true;
			}
		}
		return false;
	}

	/** Whether some record must be sent again. */
	boolean hasTransientFailures() {
		return !retry.isEmpty();
	}

	/**
	 * How many of the records to send again were {@link RecordOutcome#FENCED}: Redis
	 * refused them for another writer's progress, not for a fault of its own.
	 */
	int fenced() {
		return fenced;
	}

	/**
	 * Whether some record must be sent again for a fault of Redis' (not only because it
	 * was fenced, nor only with replies that may be the records' own fault while others
	 * were written): what the circuit breaker counts as a failed round trip.
	 */
	boolean redisFailed() {
		return retry.size() > fenced && !(anyWritten() && onlyBlamable());
	}

	/**
	 * Whether every record sent again for a failure of its own failed with a
	 * {@link FailureClass#blamable} reply.
	 */
	private boolean onlyBlamable() {
		for (Throwable cause : retryCauses) {
			if (cause != null && !FailureClass.blamable(cause)) {
				return false;
			}
		}
		return true;
	}

	/** The records Redis rejected, as dead letters with the reply as their reason. */
	List<DeadLetter> permanent() {
		return deadLetters;
	}

	/** The outcome of the plan's record {@code r}. */
	RecordOutcome outcome(int r) {
		return outcomes == null ? RecordOutcome.WRITTEN : outcomes[r];
	}

	/**
	 * Gives each record of the plan whose outcome is {@code outcome} to {@code action},
	 * in plan order.
	 */
	void forEach(RecordOutcome outcome, Consumer<MappedRecord> action) {
		if (outcomes == null) {
			if (outcome == RecordOutcome.WRITTEN) {
				plan.records().forEach(action);
			}
			return;
		}
		for (int r = 0; r < outcomes.length; r++) {
			if (outcomes[r] == outcome) {
				action.accept(plan.records().get(r));
			}
		}
	}

	private static boolean writesAnyOf(MappedRecord record, Set<ByteBuffer> keys) {
		for (RedisWrite write : record.writes()) {
			if (keys.contains(ByteBuffer.wrap(write.key()))) {
				return true;
			}
		}
		return false;
	}

}
