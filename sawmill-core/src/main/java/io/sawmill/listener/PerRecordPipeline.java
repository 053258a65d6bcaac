package io.sawmill.listener;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.sawmill.deadletter.DeadLetter;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.SawmillMetrics;
import io.sawmill.redis.FailureClass;
import io.sawmill.redis.PipelineResult;
import io.sawmill.redis.RedisBatchWriter;

/**
 * The pipeline step with per-record outcomes: every reply is mapped back to the record whose write
 * produced it. A record whose writes all succeeded is done. A record with a {@link FailureClass#PERMANENT}
 * failure (and no transient one) becomes a dead letter. A record with a {@link FailureClass#TRANSIENT}
 * failure is sent again — with every later record of the batch that writes one of its keys, so
 * that per key the writes are still applied in offset order — after an exponential backoff with
 * jitter (Resilience4j Retry), through the {@link RedisCircuit}.
 * <p>
 * A batch's first attempt can be split: {@link #send} puts it on the wire and {@link #finish}
 * awaits it and retries, so the listener can send the next batch in between.
 * <p>
 * Called from listener threads; keeps no state between calls other than the {@link Sent} it returns.
 */
final class PerRecordPipeline {

	private static final Logger log = LoggerFactory.getLogger(PerRecordPipeline.class);

	private static final Duration CIRCUIT_OPEN_PAUSE = Duration.ofMillis(100);

	private final RedisBatchWriter writer;
	private final Retry retry;
	private final RedisCircuit circuit;
	private final SawmillMetrics metrics;

	PerRecordPipeline(RedisBatchWriter writer, ListenerConfig config, RedisCircuit circuit, SawmillMetrics metrics) {
		this.writer = writer;
		this.circuit = circuit;
		this.metrics = metrics;
		this.retry = Retry.of("sawmill-redis-" + config.groupId(), RetryConfig.<Attempt>custom()
			.maxAttempts(config.retryMaxAttempts())
			.intervalFunction(IntervalFunction.ofExponentialRandomBackoff(config.retryInitialBackoff(), 2.0, 0.5,
					config.retryMaxBackoff()))
			.retryOnResult(Attempt::hasTransientFailures)
			.ignoreExceptions(CallNotPermittedException.class)
			.build());
	}

	/** What one round trip did to the records sent. */
	static final class Attempt {

		final List<MappedRecord> retry = new ArrayList<>(0);
		final List<DeadLetter> permanent = new ArrayList<>(0);
		PipelineResult result;

		boolean hasTransientFailures() {
			return !retry.isEmpty();
		}
	}

	/**
	 * Writes the records and returns those Redis permanently rejected, as dead letters.
	 * @throws BatchWriteFailedException when transient failures remain after the retries, or the
	 *     circuit is open: nothing of the batch may be committed
	 */
	List<DeadLetter> write(List<MappedRecord> records) {
		return finish(send(records));
	}

	/**
	 * The first attempt of a batch: its writes go on the wire, and the replies are left to
	 * {@link Sent#clean()} or {@link #finish}.
	 * @throws BatchWriteFailedException when the circuit is open
	 */
	Sent send(List<MappedRecord> records) {
		if (records.isEmpty()) {
			return new Sent(records, new int[0], null, 0);
		}
		try {
			circuit.breaker().acquirePermission();
		}
		catch (CallNotPermittedException ex) {
			throw circuitOpen(ex);
		}
		List<RedisWrite> writes = new ArrayList<>(records.size() * 2);
		int[] owner = owners(records, writes);
		long started = System.nanoTime();
		try {
			return new Sent(records, owner, writer.send(writes), started);
		}
		catch (RuntimeException ex) {
			Sent failed = new Sent(records, owner, null, started);
			failed.failure = ex;
			circuit.breaker().onError(System.nanoTime() - started, TimeUnit.NANOSECONDS, ex);
			return failed;
		}
	}

	/**
	 * Completes a sent batch: awaits the first attempt's replies, then retries what failed
	 * transiently (as {@link #write}).
	 * @return the records Redis permanently rejected, as dead letters
	 * @throws BatchWriteFailedException when transient failures remain after the retries, or the
	 *     circuit is open: nothing of the batch may be committed
	 */
	List<DeadLetter> finish(Sent sent) {
		if (sent.records.isEmpty()) {
			return List.of();
		}
		List<DeadLetter> deadLetters = new ArrayList<>(0);
		List<MappedRecord>[] pending = new List[] { sent.records };
		int[] attempts = { 0 };
		Supplier<Attempt> retried = circuit.breaker().decorateSupplier(() -> attempt(pending[0]));
		Supplier<Attempt> once = () -> {
			attempts[0]++;
			Attempt attempt = attempts[0] == 1 ? sent.first() : retried.get();
			deadLetters.addAll(attempt.permanent);
			if (attempt.hasTransientFailures()) {
				log.warn("Redis failed {} of {} commands (attempt {}); retrying {} records: {}",
						attempt.result.failures().size(), attempt.result.commands(), attempts[0], attempt.retry.size(),
						attempt.result.failures().get(0).cause().toString());
				pending[0] = attempt.retry;
			}
			return attempt;
		};
		Attempt last;
		try {
			last = retry.executeSupplier(once);
		}
		catch (CallNotPermittedException ex) {
			throw circuitOpen(ex);
		}
		if (last.hasTransientFailures()) {
			throw new BatchWriteFailedException(attempts[0], last.result);
		}
		return deadLetters;
	}

	/**
	 * The circuit is open: the container is being paused (or another thread's probe is under way).
	 * Do not spin through poll-seek-poll meanwhile.
	 */
	private static BatchWriteFailedException circuitOpen(CallNotPermittedException ex) {
		LockSupport.parkNanos(CIRCUIT_OPEN_PAUSE.toNanos());
		return new BatchWriteFailedException("the Redis circuit is open; the batch will be polled again", ex);
	}

	/**
	 * A batch's first attempt, on the wire. Its outcome is read once, on the thread that sent it, and
	 * counted by the circuit breaker like any attempt.
	 */
	final class Sent {

		private final List<MappedRecord> records;
		private final int[] owner;
		private final RedisBatchWriter.Sent replies;
		private final long started;
		private Attempt outcome;
		private RuntimeException failure;

		private Sent(List<MappedRecord> records, int[] owner, RedisBatchWriter.Sent replies, long started) {
			this.records = records;
			this.owner = owner;
			this.replies = replies;
			this.started = started;
		}

		/** Waits for the first attempt; true when nothing of it failed transiently (it need not be sent again). */
		boolean clean() {
			try {
				return !first().hasTransientFailures();
			}
			catch (RuntimeException ex) {
				return false;
			}
		}

		/** The first attempt's outcome, waited for once; throws what the writer threw. */
		Attempt first() {
			if (outcome == null && failure == null) {
				try {
					PipelineResult result = replies.await();
					// to the last reply, not to now: with a batch in flight, the thread mapped and sent the next one since
					long took = Math.max(0, replies.lastReplyNanos() - started);
					metrics.pipelineCompleted(Duration.ofNanos(took), result.commands());
					outcome = outcome(records, owner, result);
					circuit.breaker().onResult(took, TimeUnit.NANOSECONDS, outcome);
				}
				catch (RuntimeException ex) {
					failure = ex;
					circuit.breaker().onError(System.nanoTime() - started, TimeUnit.NANOSECONDS, ex);
				}
			}
			if (failure != null) {
				throw failure;
			}
			return outcome;
		}
	}

	private static int[] owners(List<MappedRecord> records, List<RedisWrite> writes) {
		int[] owner = new int[records.stream().mapToInt(r -> r.writes().size()).sum()];
		for (int r = 0; r < records.size(); r++) {
			for (RedisWrite write : records.get(r).writes()) {
				owner[writes.size()] = r;
				writes.add(write);
			}
		}
		return owner;
	}

	private Attempt attempt(List<MappedRecord> records) {
		List<RedisWrite> writes = new ArrayList<>(records.size() * 2);
		int[] owner = owners(records, writes);
		long started = System.nanoTime();
		PipelineResult result = writer.write(writes);
		metrics.pipelineCompleted(Duration.ofNanos(System.nanoTime() - started), result.commands());
		return outcome(records, owner, result);
	}

	private static Attempt outcome(List<MappedRecord> records, int[] owner, PipelineResult result) {
		Attempt attempt = new Attempt();
		attempt.result = result;
		if (result.succeeded()) {
			return attempt;
		}
		Throwable[] transientCause = new Throwable[records.size()];
		Throwable[] permanentCause = new Throwable[records.size()];
		for (PipelineResult.Failure failure : result.failures()) {
			int r = owner[failure.index()];
			if (FailureClass.of(failure.cause()) == FailureClass.TRANSIENT) {
				transientCause[r] = transientCause[r] != null ? transientCause[r] : failure.cause();
			}
			else {
				permanentCause[r] = permanentCause[r] != null ? permanentCause[r] : failure.cause();
			}
		}
		Set<ByteBuffer> retriedKeys = new HashSet<>();
		for (int r = 0; r < records.size(); r++) {
			MappedRecord record = records.get(r);
			boolean sharesRetriedKey = !retriedKeys.isEmpty() && writesAnyOf(record, retriedKeys);
			if (transientCause[r] != null || sharesRetriedKey) {
				attempt.retry.add(record);
				record.writes().forEach(write -> retriedKeys.add(ByteBuffer.wrap(write.key())));
			}
			else if (permanentCause[r] != null) {
				attempt.permanent.add(new DeadLetter(record.record(), "Redis rejected a write: "
						+ permanentCause[r].getMessage(), permanentCause[r]));
			}
		}
		return attempt;
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
