package io.sawmill.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.BatchAcknowledgingConsumerAwareMessageListener;
import org.springframework.kafka.listener.ConsumerSeekAware;
import org.springframework.kafka.support.Acknowledgment;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.metrics.SawmillMetrics;

/**
 * The data path of one polled batch, top to bottom: map every record → write all writes in
 * pipelined round trips, per-record outcomes, transient failures retried → dead-letter what cannot
 * be written → commit the batch's offsets.
 * <p>
 * The commit contract: the batch's offsets are committed ({@link OffsetCommits}) only when every
 * record of the batch is in Redis (acknowledged by Redis), dead-lettered (acknowledged by the
 * dead-letter destination) or skipped (mapped to no writes). Otherwise nothing of the batch is
 * committed and {@link RedeliverBatchErrorHandler} (or, outside a poll, this class) seeks back so
 * the same records are polled again. Spring's {@link Acknowledgment} is not used: with AckMode
 * {@code MANUAL_IMMEDIATE} and no acknowledgement, the container itself never commits.
 * <p>
 * <b>One batch in flight.</b> While the consumer is behind, Redis should not sit idle while the
 * listener polls and maps. So a full batch ({@code max.poll.records}) whose consumer has more
 * records waiting is left <em>in flight</em>: sent, its replies not yet awaited, not committed. The
 * next call maps the next batch and sends it on the same connection, and only then awaits, retries,
 * dead-letters and commits the batch in flight. If the batch in flight needs a retry, the batch sent
 * after it no longer counts: it is sent again after the retry, so per key Redis still ends with the
 * writes in offset order. If the batch in flight cannot be written, neither batch is committed and
 * both are polled again. A batch in flight is finished before its partitions are revoked or lost,
 * when the consumer closes ({@link CommitOnRebalance}), and when the container is idle
 * ({@link #onIdleContainer}); a batch that is not full, or whose consumer has nothing more to
 * read, is finished in the call that polled it — except one sent again after a retry, which is
 * always left in flight, so that no call spends more than about one batch's retry budget
 * (what the start-up check holds against {@code max.poll.interval.ms}).
 * <p>
 * Called from listener threads only, one batch per thread at a time; shared by all threads of a
 * container, so it keeps per-thread state in thread locals only.
 */
final class PipelineBatchListener
		implements BatchAcknowledgingConsumerAwareMessageListener<byte[], byte[]>, ConsumerSeekAware {

	private static final Logger log = LoggerFactory.getLogger(PipelineBatchListener.class);

	private final RecordMapper mapper;
	private final int maxRecordBytes;
	private final PerRecordPipeline pipeline;
	private final DeadLetterPublisher deadLetters;
	private final SawmillMetrics metrics;
	private final CommitOnRebalance commits;

	/** The calling consumer thread's batch in flight, or null. */
	private final ThreadLocal<Batch> inFlight = new ThreadLocal<>();

	PipelineBatchListener(RecordMapper mapper, int maxRecordBytes, PerRecordPipeline pipeline,
			DeadLetterPublisher deadLetters, SawmillMetrics metrics, CommitOnRebalance commits) {
		this.mapper = mapper;
		this.maxRecordBytes = maxRecordBytes;
		this.pipeline = pipeline;
		this.deadLetters = deadLetters;
		this.metrics = metrics;
		this.commits = commits;
		commits.finishFirst(this);
	}

	/** One polled batch on its way through the data path. */
	private static final class Batch {

		final List<ConsumerRecord<byte[], byte[]>> records;
		final MappedBatch mapped;
		final long polled;
		final Consumer<?, ?> consumer;
		PerRecordPipeline.Sent sent;

		Batch(List<ConsumerRecord<byte[], byte[]>> records, MappedBatch mapped, long polled, Consumer<?, ?> consumer) {
			this.records = records;
			this.mapped = mapped;
			this.polled = polled;
			this.consumer = consumer;
		}
	}

	@Override
	public void onMessage(List<ConsumerRecord<byte[], byte[]>> records, Acknowledgment acknowledgment,
			Consumer<?, ?> consumer) {
		Batch current = new Batch(records, MappedBatch.map(records, mapper, maxRecordBytes), System.nanoTime(),
				consumer);
		Batch previous = inFlight.get();
		inFlight.remove();
		if (previous == null) {
			current.sent = pipeline.send(current.mapped.toWrite());
			finishOrKeep(current);
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
			boolean clean = previous.sent.clean();
			if (!clean && next != null) {
				// the previous batch's retries go after this batch's writes: what this batch wrote
				// no longer counts, it is written again once the previous batch is done
				next.clean();
				next = null;
			}
			finish(previous);
			previousDone = true;
			if (notSent != null) {
				throw notSent;
			}
			if (next != null) {
				current.sent = next;
				finishOrKeep(current);
			}
			else {
				// kept in flight whatever its size: awaiting it too would let one poll spend two
				// batches' retry budgets, past max.poll.interval.ms; the next poll or the idle check
				// finishes it
				current.sent = pipeline.send(current.mapped.toWrite());
				keep(current);
			}
		}
		catch (RuntimeException ex) {
			if (previousDone) {
				throw ex;
			}
			throw new InFlightBatchFailedException(previous.records, ex);
		}
	}

	/** Keeps a full batch in flight while its consumer has more to read; otherwise finishes it now. */
	private void finishOrKeep(Batch batch) {
		if (commits.commits().isFull(batch.records.size()) && moreToRead(batch.consumer)) {
			keep(batch);
		}
		else {
			finish(batch);
		}
	}

	private void keep(Batch batch) {
		inFlight.set(batch);
		metrics.batchKeptInFlight();
	}

	/**
	 * Whether the next poll should return records at once: some assigned partition has records
	 * after the consumer's position (as of the last fetch), and nothing is paused.
	 */
	private static boolean moreToRead(Consumer<?, ?> consumer) {
		try {
			if (!consumer.paused().isEmpty()) {
				return false;
			}
			for (TopicPartition partition : consumer.assignment()) {
				OptionalLong lag = consumer.currentLag(partition);
				if (lag != null && lag.isPresent() && lag.getAsLong() > 0) {
					return true;
				}
			}
		}
		catch (UnsupportedOperationException ex) {
			// a consumer that cannot tell: finish every batch at once
		}
		return false;
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
		commits.commits().commit(batch.consumer, batch.records);
		metrics.batchCommitted(Duration.ofNanos(System.nanoTime() - batch.polled), batch.records.size());
		Set<ConsumerRecord<byte[], byte[]>> notWritten = Collections.newSetFromMap(new IdentityHashMap<>());
		rejectedByRedis.forEach(deadLetter -> notWritten.add(deadLetter.record()));
		for (MappedRecord written : batch.mapped.toWrite()) {
			if (!notWritten.contains(written.record())) {
				batch.mapped.count(written.record().topic(), RecordOutcome.WRITTEN);
			}
		}
		for (DeadLetter deadLetter : all) {
			batch.mapped.count(deadLetter.record().topic(), deadLetters.outcome());
		}
		batch.mapped.report(metrics);
	}

	/**
	 * Finishes the calling thread's batch in flight, if any, outside {@link #onMessage}: before a
	 * rebalance or the consumer's close, and when the container is idle. If it cannot be committed,
	 * its partitions still assigned are sought back to it, so it is polled again.
	 */
	void finishInFlight(Consumer<?, ?> consumer) {
		Batch batch = inFlight.get();
		if (batch == null) {
			return;
		}
		inFlight.remove();
		try {
			finish(batch);
		}
		catch (RuntimeException ex) {
			Map<TopicPartition, Long> from = RedeliverBatchErrorHandler.seekBack(consumer, batch.records, metrics, true);
			log.warn("Batch of {} records in flight not committed; it will be polled again from {}: {}",
					batch.records.size(), from, ex.toString());
		}
	}

	/** The container is idle (nothing polled for a while): a batch left in flight is finished now. */
	@Override
	public void onIdleContainer(Map<TopicPartition, Long> assignments, ConsumerSeekCallback callback) {
		Batch batch = inFlight.get();
		if (batch != null) {
			finishInFlight(batch.consumer);
		}
	}
}
