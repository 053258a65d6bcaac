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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.sawmill.deadletter.DeadLetter;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.RedisBatchWriter;

/**
 * The write step: a batch's writes in pipelined round trips, with per-record outcomes
 * ({@link Outcomes}). Each round trip sends its records' {@link WritePlan}: with
 * {@link ListenerConfig#coalesceWrites()}, the writes of each key merged by the
 * {@link Coalescer}. Records that failed transiently are sent again (with the later
 * records that share a key with them, planned again) after an exponential backoff with
 * jitter (Resilience4j Retry), each round trip through the {@link RedisCircuit}. A batch
 * holding a write that is not {@link RedisWrite#idempotent()} is never retried record by
 * record: a transient failure fails it whole, so that it is polled again whole
 * ({@link RedisWrite} says what that means for its writes). A record whose write fails
 * with the same reply that may be its own fault in every attempt, while the others were
 * written, is dead-lettered once the retries are used up ({@link Elimination}).
 * <p>
 * A batch's first round trip is split: {@link #send} puts it on the wire and
 * {@link #finish} awaits it and retries, so the listener can send the next batch in
 * between.
 * <p>
 * Called from listener threads; keeps no state between calls other than the {@link Sent}
 * it returns.
 */
final class PerRecordPipeline {

	private static final Logger log = LoggerFactory.getLogger(PerRecordPipeline.class);

	private final RedisBatchWriter writer;

	private final Retry retry;

	private final RedisCircuit circuit;

	private final SawmillMetrics metrics;

	private final boolean coalesce;

	PerRecordPipeline(RedisBatchWriter writer, ListenerConfig config, RedisCircuit circuit, SawmillMetrics metrics) {
		this.writer = writer;
		this.circuit = circuit;
		this.metrics = metrics;
		this.coalesce = config.coalesceWrites();
		this.retry = Retry.of("sawmill-redis-" + config.groupId(),
				RetryConfig.<Outcomes>custom()
					.maxAttempts(config.retryMaxAttempts())
					.intervalFunction(IntervalFunction.ofExponentialRandomBackoff(config.retryInitialBackoff(), 2.0,
							0.5, config.retryMaxBackoff()))
					.retryOnResult(Outcomes::hasTransientFailures)
					.ignoreExceptions(CallNotPermittedException.class)
					.build());
	}

	/**
	 * The first round trip of a batch: its writes go on the wire; {@link Sent#await()} or
	 * {@link #finish} reads the replies.
	 * @throws BatchWriteFailedException when the circuit is open
	 */
	Sent send(List<MappedRecord> records) {
		if (records.isEmpty()) {
			return new Sent(WritePlan.oneToOne(records), null, 0);
		}
		try {
			circuit.acquirePermission();
		}
		catch (CallNotPermittedException ex) {
			throw circuitOpen(ex);
		}
		WritePlan plan = plan(records);
		long started = System.nanoTime();
		try {
			RedisBatchWriter.Sent replies = writer.send(plan.writes());
			metrics.writesCoalesced(plan.coalesced());
			return new Sent(plan, replies, started);
		}
		catch (RuntimeException ex) {
			circuit.onError(System.nanoTime() - started, ex);
			Sent failed = new Sent(plan, null, started);
			failed.failure = ex;
			return failed;
		}
	}

	/**
	 * Completes a sent batch: awaits its first round trip, then retries what failed
	 * transiently.
	 * @return each record's outcome: the records Redis permanently rejected as dead
	 * letters, the stale ones
	 * @throws BatchWriteFailedException when transient failures remain after the retries,
	 * when the batch holds non-idempotent writes and failed transiently, or when the
	 * circuit is open: nothing of the batch may be committed
	 */
	BatchOutcomes finish(Sent sent) {
		BatchOutcomes outcomes = new BatchOutcomes();
		if (sent.records().isEmpty()) {
			return outcomes;
		}
		if (!allIdempotent(sent.records())) {
			return finishWithoutRetry(sent, outcomes);
		}
		// one slot, which the attempts below update: the records the next round trip
		// sends
		List<List<MappedRecord>> pending = new ArrayList<>(List.of(sent.records()));
		int[] attempts = { 0 };
		Elimination elimination = new Elimination();
		Supplier<Outcomes> once = () -> {
			attempts[0]++;
			Outcomes attempt = attempts[0] == 1 ? sent.await() : roundTrip(pending.get(0), elimination);
			elimination.attempt(attempt);
			outcomes.add(attempt);
			if (attempt.hasTransientFailures()) {
				log.warn("Redis failed {} of {} commands (attempt {}); retrying {} records: {}",
						attempt.result().failures().size(), attempt.result().commands(), attempts[0],
						attempt.retry().size(), attempt.result().failures().get(0).cause().toString());
				pending.set(0, attempt.retry());
			}
			return attempt;
		};
		Outcomes last;
		try {
			last = retry.executeSupplier(once);
		}
		catch (CallNotPermittedException ex) {
			throw circuitOpen(ex);
		}
		if (last.hasTransientFailures()) {
			if (elimination.settles(last)) {
				return eliminate(elimination, last, outcomes);
			}
			throw new BatchWriteFailedException(attempts[0], last.result());
		}
		return outcomes;
	}

	/**
	 * The retries are used up and only suspects still fail ({@link Elimination}): they
	 * are dead-lettered, and the records taken along behind them written.
	 * @throws BatchWriteFailedException when those records fail
	 */
	private BatchOutcomes eliminate(Elimination elimination, Outcomes last, BatchOutcomes outcomes) {
		List<MappedRecord> followers = elimination.followers(last);
		if (!followers.isEmpty()) {
			Outcomes tail = roundTrip(followers, new Elimination());
			outcomes.add(tail);
			if (tail.hasTransientFailures()) {
				throw new BatchWriteFailedException(1, tail.result());
			}
		}
		List<DeadLetter> blamed = elimination.blamed(last);
		blamed.forEach(outcomes::deadLetter);
		log.warn(
				"{} records failed with the same reply in every attempt while the other records of their batch were "
						+ "written; they are dead-lettered by elimination, the first with: {}",
				blamed.size(), blamed.get(0).reason());
		return outcomes;
	}

	/** The commands that write {@code records}, coalesced when configured. */
	private WritePlan plan(List<MappedRecord> records) {
		return coalesce ? Coalescer.plan(records) : WritePlan.oneToOne(records);
	}

	/**
	 * A retry's round trip, waited for at once: the records being retried, planned again.
	 * One where only {@code elimination}'s suspects failed is not counted by the circuit
	 * breaker.
	 */
	private Outcomes roundTrip(List<MappedRecord> records, Elimination elimination) {
		circuit.acquirePermission();
		WritePlan plan = plan(records);
		long started = System.nanoTime();
		PipelineResult result;
		try {
			result = writer.write(plan.writes());
			metrics.writesCoalesced(plan.coalesced());
		}
		catch (RuntimeException ex) {
			circuit.onError(System.nanoTime() - started, ex);
			throw ex;
		}
		long took = System.nanoTime() - started;
		metrics.pipelineCompleted(Duration.ofNanos(took), result.commands());
		Outcomes outcomes = Outcomes.of(plan, result);
		if (elimination.onlySuspectsFailed(outcomes)) {
			circuit.release();
		}
		else {
			circuit.onReplies(took, outcomes);
		}
		return outcomes;
	}

	/**
	 * A batch holding non-idempotent writes is never partly sent again: on a transient
	 * failure it is not retried record by record, it fails whole and is polled again.
	 */
	private BatchOutcomes finishWithoutRetry(Sent sent, BatchOutcomes outcomes) {
		Outcomes first;
		try {
			first = sent.await();
		}
		catch (RuntimeException ex) {
			throw repeatedWhole(sent, ex.toString(),
					new BatchWriteFailedException("Redis failed a batch holding non-idempotent writes: " + ex, ex));
		}
		if (first.hasTransientFailures()) {
			throw repeatedWhole(sent, first.result().failures().get(0).cause().toString(),
					new BatchWriteFailedException(1, first.result()));
		}
		outcomes.add(first);
		return outcomes;
	}

	private BatchWriteFailedException repeatedWhole(Sent sent, String cause, BatchWriteFailedException failure) {
		metrics.nonIdempotentBatchRepeated();
		log.warn(
				"A batch of {} records holding non-idempotent writes failed transiently ({}); it is not retried record "
						+ "by record but polled again whole, so non-idempotent writes that Redis already applied may be "
						+ "applied again",
				sent.records().size(), cause);
		return failure;
	}

	/**
	 * Whether every write of {@code records} may be repeated
	 * ({@link RedisWrite#idempotent()}).
	 */
	static boolean allIdempotent(List<MappedRecord> records) {
		for (MappedRecord record : records) {
			if (!record.idempotent()) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The circuit is open: the container is being paused (or another thread's probe is
	 * under way); the batch is polled again after the redelivery backoff.
	 */
	private static BatchWriteFailedException circuitOpen(CallNotPermittedException ex) {
		return new BatchWriteFailedException("the Redis circuit is open; the batch will be polled again", ex);
	}

	/**
	 * A batch's first round trip, on the wire. Its replies are awaited once, on the
	 * thread that sent it, and counted by the circuit breaker like any round trip.
	 */
	final class Sent {

		private final WritePlan plan;

		private final RedisBatchWriter.@Nullable Sent replies;

		private final long started;

		private @Nullable Outcomes outcomes;

		private @Nullable RuntimeException failure;

		private Sent(WritePlan plan, RedisBatchWriter.@Nullable Sent replies, long started) {
			this.plan = plan;
			this.replies = replies;
			this.started = started;
		}

		private List<MappedRecord> records() {
			return plan.records();
		}

		/**
		 * Waits for the replies (the first call only; later calls return the same
		 * outcome).
		 * @throws RuntimeException what the writer threw
		 */
		Outcomes await() {
			if (records().isEmpty()) {
				// nothing went on the wire: nothing to wait for, and nothing for the
				// circuit to count
				return Outcomes.of(plan, new PipelineResult(0, 0, List.of()));
			}
			if (outcomes == null && failure == null) {
				try {
					// on the wire: a batch whose send failed has its failure, and one
					// without records returned above
					RedisBatchWriter.Sent onTheWire = Objects.requireNonNull(replies);
					PipelineResult result = onTheWire.await();
					// to the last reply, not to now: with a batch in flight, the thread
					// mapped and sent the next one since
					long took = Math.max(0, onTheWire.lastReplyNanos() - started);
					metrics.pipelineCompleted(Duration.ofNanos(took), result.commands());
					outcomes = Outcomes.of(plan, result);
					circuit.onReplies(took, outcomes);
				}
				catch (RuntimeException ex) {
					failure = ex;
					circuit.onError(System.nanoTime() - started, ex);
				}
			}
			if (failure != null) {
				throw failure;
			}
			return Objects.requireNonNull(outcomes);
		}

		/**
		 * Waits for the replies; true when nothing of the round trip failed transiently.
		 */
		boolean awaitClean() {
			try {
				return !await().hasTransientFailures();
			}
			catch (RuntimeException ex) {
				return false;
			}
		}

	}

}
