package io.sawmill.redis.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Where the replies of one batch sent by {@link SlotSend} land: each write's first reply (its
 * outcome, or a {@code MOVED} / {@code ASK} redirect) is counted in {@link #first()}; a redirected
 * write waits to be sent again, and the outcome of that is counted in {@link #resending}'s count.
 * Every write Redis acknowledged is noted in the connection's {@link KeyOrder}, under the number it
 * got when the batch was sent, so that a write applied after a later write to its key is reported.
 * <p>
 * Completed on Lettuce's event loops, which complete one master's replies in the order it applied
 * the writes; read by the writing thread after it awaited {@link #first()} (and the resent count),
 * which orders the reads after the writes.
 */
final class SlotReplies implements ReplySlot.Replies {

	private final KeyOrder.Batch order;

	private final BatchReplies first;

	private final Queue<ReplySlot> redirected = new ConcurrentLinkedQueue<>();

	private volatile boolean moved;

	private volatile BatchReplies resent;

	SlotReplies(KeyOrder.Batch order, BatchReplies first) {
		this.order = order;
		this.first = first;
	}

	/** The batch's numbers in the connection's key order. */
	KeyOrder.Batch order() {
		return order;
	}

	/** Counts each write's first reply: its outcome, or its redirect. */
	BatchReplies first() {
		return first;
	}

	@Override
	public void completed(ReplySlot slot, boolean afterRedirect) {
		if (slot.succeeded()) {
			order.acknowledged(slot.write(), slot.index());
		}
		if (!afterRedirect) {
			first.arrived();
		}
		else {
			BatchReplies again = resent;
			if (again != null) {
				again.arrived();
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

	/** Whether some write was answered {@code MOVED}: the topology is stale. Call after {@link #first()} completed. */
	boolean moved() {
		return moved;
	}

	/** Whether some write waits to be sent again. Call after {@link #first()} completed. */
	boolean anyRedirected() {
		return !redirected.isEmpty();
	}

	/**
	 * The redirected writes still without an outcome, in batch order; from now on their outcomes are
	 * counted in {@link #resent()}. Called once, by the writing thread, before it sends them again.
	 */
	List<ReplySlot> resending() {
		List<ReplySlot> again = new ArrayList<>(redirected.size());
		for (ReplySlot slot : redirected) {
			if (!slot.isDone()) {
				again.add(slot);
			}
		}
		again.sort(Comparator.comparingInt(ReplySlot::index));
		if (!again.isEmpty()) {
			resent = new BatchReplies(again.size());
		}
		return again;
	}

	/** Counts the outcomes of the writes sent again; null until {@link #resending()} found any. */
	BatchReplies resent() {
		return resent;
	}
}
