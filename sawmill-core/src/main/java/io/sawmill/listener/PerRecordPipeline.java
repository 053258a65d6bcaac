package io.sawmill.listener;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
 * Called from listener threads; keeps no state between calls.
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
		if (records.isEmpty()) {
			return List.of();
		}
		List<DeadLetter> deadLetters = new ArrayList<>(0);
		List<MappedRecord>[] pending = new List[] { records };
		int[] attempts = { 0 };
		Supplier<Attempt> once = circuit.breaker().decorateSupplier(() -> {
			attempts[0]++;
			Attempt attempt = attempt(pending[0]);
			deadLetters.addAll(attempt.permanent);
			if (attempt.hasTransientFailures()) {
				log.warn("Redis failed {} of {} commands (attempt {}); retrying {} records: {}",
						attempt.result.failures().size(), attempt.result.commands(), attempts[0], attempt.retry.size(),
						attempt.result.failures().get(0).cause().toString());
				pending[0] = attempt.retry;
			}
			return attempt;
		});
		Attempt last;
		try {
			last = retry.executeSupplier(once);
		}
		catch (CallNotPermittedException ex) {
			// the container is being paused (or another thread's probe is under way): do not spin
			// through poll-seek-poll meanwhile
			LockSupport.parkNanos(CIRCUIT_OPEN_PAUSE.toNanos());
			throw new BatchWriteFailedException("the Redis circuit is open; the batch will be polled again", ex);
		}
		if (last.hasTransientFailures()) {
			throw new BatchWriteFailedException(attempts[0], last.result);
		}
		return deadLetters;
	}

	private Attempt attempt(List<MappedRecord> records) {
		List<RedisWrite> writes = new ArrayList<>(records.size() * 2);
		int[] owner = new int[records.stream().mapToInt(r -> r.writes().size()).sum()];
		for (int r = 0; r < records.size(); r++) {
			for (RedisWrite write : records.get(r).writes()) {
				owner[writes.size()] = r;
				writes.add(write);
			}
		}
		long started = System.nanoTime();
		PipelineResult result = writer.write(writes);
		metrics.pipelineCompleted(Duration.ofNanos(System.nanoTime() - started), result.commands());

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
