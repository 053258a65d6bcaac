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
package io.sawmill.redis.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import io.sawmill.mapping.RedisWrite;

/**
 * Where the replies of one batch sent by {@link SlotSend} land: each write's first reply
 * (its outcome, or a {@code MOVED} / {@code ASK} redirect) is counted in
 * {@link #first()}; a redirected write waits to be sent again, and the outcome of that is
 * counted in {@link #resent()}.
 * <p>
 * <b>Overtaken writes.</b> Only a write sent again can be applied later than it was sent
 * (two writes to one key sent to masters' channels are applied in the order sent: a
 * master that applies the later one serves the key then, so the earlier one was applied
 * before the key moved there, or on that master before it). So each acknowledgement of
 * the connection gets a sequence number, in the order the event loops handle them, and
 * when the batch is complete every write it sent again and Redis acknowledged is compared
 * with the later writes to its key that its connection had sent by then: the rest of its
 * batch, and the next batch if it is in flight (a thread sends at most one batch before
 * it awaits the one before). When one of those was acknowledged first, the write was
 * overtaken ({@link KeyOrder.Overtaken}). That is {@link KeyOrder}'s rule, evaluated for
 * the writes sent again only, so that the common batch, which no redirect touched, costs
 * one counter per acknowledgement instead of a concurrent map entry per write.
 * <p>
 * Completed on Lettuce's event loops, which complete one master's replies in the order it
 * applied the writes; read by the writing thread after it awaited {@link #first()} (and
 * {@link #resent()}), which orders the reads after the writes.
 */
final class SlotReplies implements ReplySlot.Replies {

	private final AtomicLong acknowledgements;

	private final BatchReplies first;

	private final ReplySlot[] slots;

	private final Queue<ReplySlot> redirected = new ConcurrentLinkedQueue<>();

	private volatile boolean moved;

	private volatile @Nullable BatchReplies resent;

	/** The writes sent again; set by the writing thread. */
	private List<ReplySlot> again = List.of();

	/**
	 * The batch its connection sent next, if any; set and read by the writing thread, and
	 * cleared when this batch is done ({@link #done()}): a finished batch that the
	 * collector already moved to the old generation would otherwise keep every later
	 * batch reachable, one through the next.
	 */
	private @Nullable SlotReplies next;

	/**
	 * @param acknowledgements the connection's count of acknowledgements
	 * @param slots the batch's slots, filled in as it is encoded
	 */
	private SlotReplies(AtomicLong acknowledgements, BatchReplies first, ReplySlot[] slots) {
		this.acknowledgements = acknowledgements;
		this.first = first;
		this.slots = slots;
	}

	/**
	 * The replies of a batch of {@code slots.length} writes, sent on a connection after
	 * {@code previous} (its batch before, or null), whose acknowledgements
	 * {@code acknowledgements} counts.
	 */
	private static SlotReplies after(@Nullable SlotReplies previous, AtomicLong acknowledgements, ReplySlot[] slots) {
		SlotReplies batch = new SlotReplies(acknowledgements, new BatchReplies(slots.length), slots);
		if (previous != null) {
			previous.next = batch;
		}
		return batch;
	}

	/** Counts each write's first reply: its outcome, or its redirect. */
	BatchReplies first() {
		return first;
	}

	@Override
	public void completed(ReplySlot slot, boolean afterRedirect) {
		if (slot.succeeded()) {
			slot.acknowledgedAs(acknowledgements.incrementAndGet());
		}
		if (!afterRedirect) {
			first.arrived();
		}
		else {
			BatchReplies count = resent;
			if (count != null) {
				count.arrived();
			}
		}
	}

	@Override
	public boolean takesRedirects() {
		return true;
	}

	@Override
	public void redirected(ReplySlot slot) {
		String error = slot.getError();
		if (error != null && error.startsWith("MOVED ")) {
			moved = true; // published by the count of first replies
		}
		redirected.add(slot);
		first.arrived();
	}

	/**
	 * Whether some write was answered {@code MOVED}: the topology is stale. Call after
	 * {@link #first()} completed.
	 */
	boolean moved() {
		return moved;
	}

	/**
	 * Whether some write waits to be sent again. Call after {@link #first()} completed.
	 */
	boolean anyRedirected() {
		return !redirected.isEmpty();
	}

	/**
	 * The redirected writes still without an outcome, in batch order; from now on their
	 * outcomes are counted in {@link #resent()}. Called once, by the writing thread,
	 * before it sends them again.
	 */
	List<ReplySlot> resending() {
		List<ReplySlot> sending = new ArrayList<>(redirected.size());
		for (ReplySlot slot : redirected) {
			if (!slot.isDone()) {
				sending.add(slot);
			}
		}
		sending.sort(Comparator.comparingInt(ReplySlot::index));
		if (!sending.isEmpty()) {
			resent = new BatchReplies(sending.size());
		}
		again = sending;
		return sending;
	}

	/**
	 * Counts the outcomes of the writes sent again; null until {@link #resending()} found
	 * any.
	 */
	@Nullable BatchReplies resent() {
		return resent;
	}

	/**
	 * Once every write of the batch has its outcome: the failures and, as transient
	 * failures in index order, the writes sent again that a later write to their key
	 * overtook.
	 */
	List<PipelineResult.Failure> completed(List<RedisWrite> writes, List<PipelineResult.Failure> failures) {
		Map<ByteBuffer, List<ReplySlot>> acknowledgedAgain = new HashMap<>();
		for (ReplySlot slot : again) {
			if (slot.succeeded()) {
				acknowledgedAgain.computeIfAbsent(ByteBuffer.wrap(slot.write().key()), key -> new ArrayList<>(2))
					.add(slot);
			}
		}
		if (acknowledgedAgain.isEmpty()) {
			return failures;
		}
		boolean[] overtaken = new boolean[slots.length];
		boolean any = overtake(acknowledgedAgain, slots, true, overtaken);
		if (next != null) {
			any |= overtake(acknowledgedAgain, next.slots, false, overtaken);
		}
		if (!any) {
			return failures;
		}
		List<PipelineResult.Failure> all = new ArrayList<>(failures);
		for (int i = 0; i < overtaken.length; i++) {
			if (overtaken[i]) {
				all.add(new PipelineResult.Failure(i, writes.get(i), new KeyOrder.Overtaken()));
			}
		}
		all.sort(Comparator.comparingInt(PipelineResult.Failure::index));
		return all;
	}

	/**
	 * The batch is done, its outcomes read: it no longer refers to the batch sent after
	 * it.
	 */
	void done() {
		next = null;
	}

	/**
	 * Marks each write sent again that one of {@code later} (the same batch's slots when
	 * {@code sameBatch}, else the next batch's) overtook: a write to its key, after it in
	 * the batch or in the next batch, acknowledged before it.
	 */
	private static boolean overtake(Map<ByteBuffer, List<ReplySlot>> acknowledgedAgain, ReplySlot[] later,
			boolean sameBatch, boolean[] overtaken) {
		boolean any = false;
		for (ReplySlot slot : later) {
			long acknowledged = slot == null ? 0 : slot.acknowledgement();
			if (acknowledged == 0) {
				continue; // not acknowledged (yet): not before any write sent again
			}
			List<ReplySlot> earlier = acknowledgedAgain.get(ByteBuffer.wrap(slot.write().key()));
			if (earlier == null) {
				continue;
			}
			for (ReplySlot again : earlier) {
				if ((!sameBatch || again.index() < slot.index()) && acknowledged < again.acknowledgement()) {
					overtaken[again.index()] = true;
					any = true;
				}
			}
		}
		return any;
	}

	/**
	 * One cluster connection's batches sent by {@link SlotSend}, in order, and its count
	 * of acknowledgements. Used by the connection's owner thread; the count by the event
	 * loops too.
	 */
	static final class Sequence {

		private final AtomicLong acknowledgements = new AtomicLong();

		private @Nullable SlotReplies last;

		/**
		 * The replies of the batch of {@code slots} sent now, after the connection's
		 * batch before.
		 */
		SlotReplies next(ReplySlot[] slots) {
			last = after(last, acknowledgements, slots);
			return last;
		}

	}

}
