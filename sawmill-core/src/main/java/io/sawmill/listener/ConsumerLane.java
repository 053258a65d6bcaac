package io.sawmill.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.metrics.SawmillMetrics;

/**
 * The data path of one consumer thread, top to bottom: map every record ({@link MappedBatch}) →
 * write ({@link PerRecordPipeline}, which coalesces each round trip's writes per key when
 * configured: {@link Coalescer}) → dead-letter what cannot be written → commit the batch's offsets
 * ({@link OffsetCommits}). It owns the thread's batch in flight and its offset commits;
 * {@link PipelineBatchListener} forwards the thread's polls, idle events and rebalances here.
 * <p>
 * The commit contract: the batch's offsets are committed only when every record of the batch is in
 * Redis (acknowledged by Redis), dead-lettered (acknowledged by the dead-letter destination) or
 * skipped (mapped to no writes). Otherwise nothing of the batch is committed and it is polled again
 * ({@link Redelivery}, through {@link RedeliverBatchErrorHandler} when {@link #poll} throws).
 * <p>
 * <b>One batch in flight.</b> The state is the batch in flight, or none. A sent batch is handed off
 * as its {@link Handoff} says. When the next batch comes while one is in flight, it is mapped and
 * sent on the same connection before the one in flight is awaited, retried, dead-lettered and
 * committed. If the batch in flight needs a retry, the batch sent after it no longer counts: it is
 * sent again after the retry, so per key Redis still ends with the writes in offset order; so a
 * batch holding non-idempotent writes is sent only once the batch in flight is finished. If the
 * batch in flight cannot be written, neither batch is committed and both are polled again
 * ({@link InFlightBatchFailedException}). A batch in flight is finished before its partitions are
 * revoked or lost, when the consumer closes, and when the container is idle.
 * <p>
 * <b>Exactly-once</b> ({@link Delivery#EXACTLY_ONCE}): every batch is written by the
 * {@link TransactionalPipeline} and finished in the call that polled it, never left in flight; the
 * lane owns the thread's watermarks ({@link AppliedOffsets}) and forgets those of partitions
 * revoked or lost.
 * <p>
 * Thread-confined: one instance per consumer thread.
 */
final class ConsumerLane {

	/** What becomes of a sent batch at the end of the call that polled it. */
	enum Handoff {

		/**
		 * Awaited, dead-lettered and committed in the call that polled it: nothing acknowledged
		 * waits for a later poll, but Redis sits idle while the thread polls and maps the next batch.
		 * For a batch that is not full, or whose consumer has nothing more to read.
		 */
		FINISH_NOW,

		/**
		 * Left in flight (sent, replies not awaited, not committed) and finished by the next call
		 * after it sent the next batch: Redis works while the thread polls and maps, and the batch's
		 * commit waits for that call (or the idle check, a rebalance, the close). For a full batch
		 * whose consumer has more to read, and always for a batch sent again after the batch before
		 * it was retried: awaiting it too would let one call spend two batches' retry budgets, past
		 * {@code max.poll.interval.ms}.
		 */
		KEEP_IN_FLIGHT
	}

	private final RecordMapper mapper;
	private final int maxRecordBytes;
	private final int batchSize;
	private final PerRecordPipeline pipeline;
	private final DeadLetterPublisher deadLetters;
	private final SawmillMetrics metrics;
	private final Redelivery redelivery;
	private final OffsetCommits commits = new OffsetCommits();
	/** With {@link Delivery#EXACTLY_ONCE}: the write step, and this thread's watermarks; else null. */
	private final TransactionalPipeline transactional;
	private final AppliedOffsets applied;

	/** The batch in flight, or null. */
	private Batch inFlight;

	ConsumerLane(RecordMapper mapper, ListenerConfig config, PerRecordPipeline pipeline, DeadLetterPublisher deadLetters,
			SawmillMetrics metrics, Redelivery redelivery) {
		this(mapper, config, pipeline, null, deadLetters, metrics, redelivery);
	}

	/** @param transactional the write step with {@link Delivery#EXACTLY_ONCE}, or null for at-least-once */
	ConsumerLane(RecordMapper mapper, ListenerConfig config, PerRecordPipeline pipeline,
			TransactionalPipeline transactional, DeadLetterPublisher deadLetters, SawmillMetrics metrics,
			Redelivery redelivery) {
		this.transactional = transactional;
		this.applied = transactional != null ? transactional.newAppliedOffsets() : null;
		this.mapper = mapper;
		this.maxRecordBytes = config.maxRecordBytes();
		this.batchSize = config.batchSize();
		this.pipeline = pipeline;
		this.deadLetters = deadLetters;
		this.metrics = metrics;
		this.redelivery = redelivery;
	}

	/** One polled batch on its way through the data path. */
	private static final class Batch {

		final List<ConsumerRecord<byte[], byte[]>> records;
		final MappedBatch mapped;
		final long polled;
		final Consumer<?, ?> consumer;
		/** A full batch ({@code max.poll.records}): the consumer was behind when it polled it. */
		final boolean behind;
		PerRecordPipeline.Sent sent;

		Batch(List<ConsumerRecord<byte[], byte[]>> records, MappedBatch mapped, Consumer<?, ?> consumer, boolean behind) {
			this.records = records;
			this.mapped = mapped;
			this.polled = System.nanoTime();
			this.consumer = consumer;
			this.behind = behind;
		}
	}

	/**
	 * A polled batch: maps it, sends it, and finishes it and the batch in flight as far as the
	 * handoff says.
	 * @throws RuntimeException when a batch cannot be committed ({@link InFlightBatchFailedException}
	 *     when the batch in flight cannot): nothing of it is committed
	 */
	void poll(List<ConsumerRecord<byte[], byte[]>> records, Consumer<?, ?> consumer) {
		Batch current = new Batch(records, MappedBatch.map(records, mapper, maxRecordBytes), consumer,
				records.size() >= batchSize);
		if (transactional != null) {
			// exactly-once: a later transaction of a partition must never apply after an earlier one
			// failed without applying, so each batch is finished before the next is sent
			finishTransactional(current);
			return;
		}
		Batch previous = inFlight;
		inFlight = null;
		if (previous != null && !PerRecordPipeline.allIdempotent(current.mapped.toWrite())) {
			// a retry of the batch in flight would send this one again: finish that one first
			try {
				finish(previous);
			}
			catch (RuntimeException ex) {
				throw new InFlightBatchFailedException(previous.records, ex);
			}
			previous = null;
		}
		if (previous == null) {
			current.sent = pipeline.send(current.mapped.toWrite());
			handOff(current, handoff(current));
			return;
		}
		boolean previousDone = false;
		try {
			PerRecordPipeline.Sent next = null;
			RuntimeException notSent = null;
			try {
				next = pipeline.send(current.mapped.toWrite());
			}
			catch (RuntimeException ex) {
				notSent = ex;
			}
			if (!previous.sent.awaitClean() && next != null) {
				// the previous batch's retries go after this batch's writes: what this batch wrote
				// no longer counts, it is written again once the previous batch is done
				next.awaitClean();
				next = null;
			}
			finish(previous);
			previousDone = true;
			if (notSent != null) {
				throw notSent;
			}
			if (next != null) {
				current.sent = next;
				handOff(current, handoff(current));
			}
			else {
				current.sent = pipeline.send(current.mapped.toWrite());
				handOff(current, Handoff.KEEP_IN_FLIGHT);
			}
		}
		catch (RuntimeException ex) {
			if (previousDone) {
				throw ex;
			}
			throw new InFlightBatchFailedException(previous.records, ex);
		}
	}

	/** The container is idle (nothing polled for a while): a batch left in flight is finished now. */
	void idle() {
		Batch batch = inFlight;
		if (batch != null) {
			finishInFlight(batch.consumer);
		}
	}

	/** Before {@code partitions} are revoked (also when the consumer closes). */
	void beforeRevoke(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		finishInFlight(consumer);
		commits.beforeRevoke(consumer, partitions);
		if (applied != null) {
			applied.revoked(partitions);
		}
	}

	/** {@code partitions} were taken away without a chance to commit. */
	void lost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		finishInFlight(consumer);
		commits.lost(partitions);
		if (applied != null) {
			applied.revoked(partitions);
		}
	}

	/**
	 * Whether the batch is kept in flight: only while the consumer is behind, that is when the batch
	 * was full and the next poll returns records at once (some assigned partition has records after
	 * the consumer's position, as of the last fetch, and nothing is paused).
	 */
	private static Handoff handoff(Batch batch) {
		if (!batch.behind) {
			return Handoff.FINISH_NOW;
		}
		try {
			if (!batch.consumer.paused().isEmpty()) {
				return Handoff.FINISH_NOW;
			}
			for (TopicPartition partition : batch.consumer.assignment()) {
				OptionalLong lag = batch.consumer.currentLag(partition);
				if (lag != null && lag.isPresent() && lag.getAsLong() > 0) {
					return Handoff.KEEP_IN_FLIGHT;
				}
			}
		}
		catch (UnsupportedOperationException ex) {
			// a consumer that cannot tell: finish every batch at once
		}
		return Handoff.FINISH_NOW;
	}

	private void handOff(Batch batch, Handoff handoff) {
		switch (handoff) {
			case FINISH_NOW -> finish(batch);
			case KEEP_IN_FLIGHT -> {
				inFlight = batch;
				metrics.batchKeptInFlight();
			}
		}
	}

	/**
	 * Awaits the batch's replies, retries, dead-letters and commits it, and counts its outcomes.
	 * @throws BatchWriteFailedException (or what the dead-letter publisher or the commit threw) when
	 *     the batch cannot be committed
	 */
	private void finish(Batch batch) {
		List<DeadLetter> rejectedByRedis = pipeline.finish(batch.sent);
		List<DeadLetter> all = new ArrayList<>(batch.mapped.rejected());
		all.addAll(rejectedByRedis);
		deadLetters.publish(all);
		commits.commit(batch.consumer, batch.records, batch.behind);
		redelivery.committed();
		metrics.batchCommitted(Duration.ofNanos(System.nanoTime() - batch.polled), batch.records.size());
		batch.mapped.report(metrics, rejectedByRedis, batch.sent.stale(), deadLetters.outcome());
	}

	/**
	 * With {@link Delivery#EXACTLY_ONCE}: writes the batch's records not applied before, dead-letters
	 * what cannot be written, commits the batch and counts its outcomes, in this call.
	 * @throws BatchWriteFailedException (or what the dead-letter publisher or the commit threw) when
	 *     the batch cannot be committed
	 */
	private void finishTransactional(Batch batch) {
		TransactionalPipeline.Written written = transactional.write(batch.mapped.toWrite(), applied);
		List<DeadLetter> all = new ArrayList<>(batch.mapped.rejected());
		all.addAll(written.rejectedByRedis());
		deadLetters.publish(all);
		commits.commit(batch.consumer, batch.records, batch.behind);
		applied.published(written.rejectedByRedis());
		redelivery.committed();
		metrics.batchCommitted(Duration.ofNanos(System.nanoTime() - batch.polled), batch.records.size());
		batch.mapped.report(metrics, written.rejectedByRedis(), written.stale(), written.duplicates(),
				deadLetters.outcome());
	}

	/**
	 * Finishes the batch in flight, if any, outside {@link #poll}. If it cannot be committed, its
	 * partitions still assigned are sought back to it, so it is polled again.
	 */
	private void finishInFlight(Consumer<?, ?> consumer) {
		Batch batch = inFlight;
		if (batch == null) {
			return;
		}
		inFlight = null;
		try {
			finish(batch);
		}
		catch (RuntimeException ex) {
			redelivery.redeliver(consumer, batch.records, true, ex);
		}
	}
}
