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

import java.util.Collection;
import java.util.OptionalLong;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

import io.sawmill.listener.Delivery;
import io.sawmill.metrics.internal.SawmillMetrics;

/**
 * {@link Delivery#AT_LEAST_ONCE}: each batch is written by the {@link PerRecordPipeline}
 * (retried record by record) and, while the consumer is behind, left in flight so that
 * Redis works while the thread polls and maps the next batch.
 * <p>
 * <b>One batch in flight.</b> The state is the batch in flight ({@link Sending}), or
 * none. When the next batch comes while one is in flight, it is sent on the same
 * connection before the one in flight is awaited, retried, dead-lettered and committed.
 * If the batch in flight needs a retry, the batch sent after it no longer counts: it is
 * sent again after the retry, so per key Redis still ends with the writes in offset
 * order; so a batch holding non-idempotent writes is sent only once the batch in flight
 * is finished. If the batch in flight cannot be written, neither batch is committed and
 * both are polled again ({@link InFlightBatchFailedException}).
 * <p>
 * Thread-confined: one instance per consumer thread.
 */
final class AtLeastOnce implements DeliveryMode {

	/** What becomes of a sent batch at the end of the call that polled it. */
	enum Handoff {

		/**
		 * Awaited, dead-lettered and committed in the call that polled it: nothing
		 * acknowledged waits for a later poll, but Redis sits idle while the thread polls
		 * and maps the next batch. For a batch that is not full, or whose consumer has
		 * nothing more to read.
		 */
		FINISH_NOW,

		/**
		 * Left in flight (sent, replies not awaited, not committed) and finished by the
		 * next call after it sent the next batch: Redis works while the thread polls and
		 * maps, and the batch's commit waits for that call (or the idle check, a
		 * rebalance, the close). For a full batch whose consumer has more to read, and
		 * always for a batch sent again after the batch before it was retried: awaiting
		 * it too would let one call spend two batches' retry budgets, past
		 * {@code max.poll.interval.ms}.
		 */
		KEEP_IN_FLIGHT

	}

	/** A batch whose first round trip is on the wire. */
	private record Sending(PolledBatch batch, PerRecordPipeline.Sent sent) {
	}

	private final PerRecordPipeline pipeline;

	private final BatchCommit commit;

	private final Redelivery redelivery;

	private final SawmillMetrics metrics;

	/** The batch in flight, or null. */
	private @Nullable Sending inFlight;

	AtLeastOnce(PerRecordPipeline pipeline, BatchCommit commit, Redelivery redelivery, SawmillMetrics metrics) {
		this.pipeline = pipeline;
		this.commit = commit;
		this.redelivery = redelivery;
		this.metrics = metrics;
	}

	/**
	 * This mode for each consumer thread's {@link BatchCommit}, writing through
	 * {@code pipeline}.
	 */
	static Function<BatchCommit, DeliveryMode> with(PerRecordPipeline pipeline, Redelivery redelivery,
			SawmillMetrics metrics) {
		return commit -> new AtLeastOnce(pipeline, commit, redelivery, metrics);
	}

	@Override
	public void write(PolledBatch batch) {
		Sending previous = inFlight;
		inFlight = null;
		if (previous == null) {
			handOff(batch, pipeline.send(batch.toWrite()), handoff(batch));
		}
		else if (!PerRecordPipeline.allIdempotent(batch.toWrite())) {
			// a retry of the batch in flight would send this one again: finish that one
			// first
			finishPrevious(previous);
			handOff(batch, pipeline.send(batch.toWrite()), handoff(batch));
		}
		else {
			overlap(previous, batch);
		}
	}

	/**
	 * Sends {@code batch} before the batch in flight is awaited, then finishes that one.
	 * If it needed a retry, {@code batch} is sent again after it, and kept in flight.
	 */
	private void overlap(Sending previous, PolledBatch batch) {
		PerRecordPipeline.Sent next = null;
		RuntimeException notSent = null;
		try {
			next = pipeline.send(batch.toWrite());
		}
		catch (RuntimeException ex) {
			notSent = ex;
		}
		if (!previous.sent().awaitClean() && next != null) {
			// the previous batch's retries go after this batch's writes: what this batch
			// wrote no longer counts, it is written again once the previous batch is done
			next.awaitClean();
			next = null;
		}
		finishPrevious(previous);
		if (notSent != null) {
			throw notSent;
		}
		if (next != null) {
			handOff(batch, next, handoff(batch));
		}
		else {
			handOff(batch, pipeline.send(batch.toWrite()), Handoff.KEEP_IN_FLIGHT);
		}
	}

	@Override
	public void finishInFlight() {
		Sending sending = inFlight;
		if (sending == null) {
			return;
		}
		inFlight = null;
		try {
			finish(sending);
		}
		catch (RuntimeException ex) {
			redelivery.redeliver(sending.batch().consumer(), sending.batch().records(), true, ex);
		}
	}

	@Override
	public void forget(Collection<TopicPartition> partitions) {
		// nothing is kept per partition: the batch in flight was finished before a revoke
	}

	/**
	 * Whether the batch is kept in flight: only while the consumer is behind, that is
	 * when the batch was full and the next poll returns records at once (some assigned
	 * partition has records after the consumer's position, as of the last fetch, and
	 * nothing is paused).
	 */
	private static Handoff handoff(PolledBatch batch) {
		if (!batch.behind()) {
			return Handoff.FINISH_NOW;
		}
		Consumer<?, ?> consumer = batch.consumer();
		try {
			if (!consumer.paused().isEmpty()) {
				return Handoff.FINISH_NOW;
			}
			for (TopicPartition partition : consumer.assignment()) {
				OptionalLong lag = consumer.currentLag(partition);
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

	private void handOff(PolledBatch batch, PerRecordPipeline.Sent sent, Handoff handoff) {
		switch (handoff) {
			case FINISH_NOW -> finish(new Sending(batch, sent));
			case KEEP_IN_FLIGHT -> {
				inFlight = new Sending(batch, sent);
				metrics.batchKeptInFlight();
			}
		}
	}

	/**
	 * Finishes the batch that was in flight when the next one came.
	 * @throws InFlightBatchFailedException when it cannot be committed
	 */
	private void finishPrevious(Sending previous) {
		try {
			finish(previous);
		}
		catch (RuntimeException ex) {
			throw new InFlightBatchFailedException(previous.batch().records(), ex);
		}
	}

	/**
	 * Awaits the batch's replies, retries, then dead-letters and commits it.
	 * @throws BatchWriteFailedException (or what the dead-letter publisher or the commit
	 * threw) when the batch cannot be committed
	 */
	private void finish(Sending sending) {
		commit.commit(sending.batch(), pipeline.finish(sending.sent()));
	}

}
