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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

import io.lettuce.core.RedisException;
import io.sawmill.mapping.RedisWrite;

/**
 * Per key, whether the writes of one cluster connection were applied in the order they
 * were queued.
 * <p>
 * Lettuce sends a write that got a MOVED or ASK redirect again on the other master's
 * connection when the redirect arrives (on the path of {@link EndpointSend};
 * {@link SlotSend} applies the same rule to the writes it sends again, in
 * {@link SlotReplies}). A later write to the same key that took a shorter way there
 * (routed straight to that master after a topology refresh, or redirected fewer times
 * because a master learned of the move in between) is then applied first, and the key
 * ends with the older value, or without a TTL when an EXPIRE overtook the HSET that
 * created the key. Both writes succeed, so nothing else would notice.
 * <p>
 * Each write gets a number as it is queued. When Redis acknowledges it and a
 * later-numbered write to the same key was acknowledged before, it was overtaken
 * ({@link Overtaken}): the writer reports it as a transient failure, so that it is
 * written again together with every later write to its keys, in order, as after any
 * transient failure. A master replies in the order it applied the writes, so an overtaken
 * write is always seen when both writes were applied on one master, as in the redirect
 * races above. When the later write was applied on the old master before the key migrated
 * and the earlier one on the new master after, the migration lies between their replies,
 * and the overtaken write is seen unless the client handles the old master's reply after
 * the new master's. Conversely, a write whose reply is handled after that of a later
 * write to its key on another master, though it was applied first, is written again for
 * nothing.
 * <p>
 * The writer never sends an overtaken write again itself: Redis did apply it, and only
 * the listener knows whether it may be repeated ({@code RedisWrite#idempotent()}). It is
 * reported as a transient failure, so the listener writes it again with the later writes
 * to its keys, or, when its batch holds a write that may not be repeated, polls the whole
 * batch again.
 * <p>
 * {@link #batch}, {@link Batch#track} and {@link Batch#completed} are called on the
 * connection's owner thread; the callbacks {@code track} returns run on Lettuce's event
 * loops, which complete the replies of one master in the order it applied the writes (the
 * writer never waits on a reply's future, whose waiting thread could run its callbacks
 * itself, out of that order).
 */
final class KeyOrder {

	/** For each key, the highest number of a write to it that Redis acknowledged. */
	private final Map<ByteBuffer, Long> lastApplied = new ConcurrentHashMap<>();

	/**
	 * The batches sent whose replies have not all arrived (as of the last look), oldest
	 * first.
	 */
	private final Deque<Batch> batches = new ArrayDeque<>();

	private long next;

	/**
	 * The next {@code size} writes queued, one batch, whose replies count down
	 * {@code arrivals}; once they all arrived, {@link Batch#completed} says which writes
	 * were overtaken.
	 */
	Batch batch(int size, BatchReplies arrivals) {
		Batch batch = new Batch(next, size, arrivals);
		batches.addLast(batch);
		return batch;
	}

	/**
	 * How many keys it remembers a write to: those some write still awaited may be
	 * compared against.
	 */
	int remembered() {
		return lastApplied.size();
	}

	/**
	 * Whether a later write to the key was acknowledged before the one numbered
	 * {@code number}.
	 */
	private boolean overtaken(byte[] key, long number) {
		return lastApplied.merge(ByteBuffer.wrap(key), number, Math::max) != number;
	}

	/**
	 * Forgets the writes that no write still awaited can be compared against: those
	 * numbered at most the first of the oldest batch whose replies have not all arrived.
	 * A batch counts once its replies arrived, awaited or not (the listener drops the
	 * batch it sent after one it could not commit).
	 */
	private void forget() {
		while (!batches.isEmpty() && batches.peekFirst().arrivals.allArrived()) {
			batches.removeFirst();
		}
		long oldestAwaited = batches.isEmpty() ? next : batches.peekFirst().first;
		lastApplied.values().removeIf(number -> number <= oldestAwaited);
	}

	/**
	 * The writes of one batch, numbered from {@code first} in the order they are queued.
	 */
	final class Batch {

		private final long first;

		/**
		 * Set by a reply's callback before the reply counts as arrived, so read once all
		 * arrived.
		 */
		private final boolean[] overtaken;

		private final BatchReplies arrivals;

		private Batch(long first, int size, BatchReplies arrivals) {
			this.first = first;
			this.overtaken = new boolean[size];
			this.arrivals = arrivals;
		}

		/**
		 * The write at {@code index} of the batch is being queued now.
		 * @return the callback for its reply: notes whether it was overtaken, then counts
		 * it as arrived
		 */
		BiConsumer<Object, Throwable> track(RedisWrite write, int index) {
			long number = next++;
			return (reply, failure) -> {
				if (failure == null && overtaken(write.key(), number)) {
					overtaken[index] = true;
				}
				arrivals.arrived();
			};
		}

		/**
		 * Every reply of the batch arrived (and was counted).
		 * @return the failures and, as transient failures in index order, the overtaken
		 * writes
		 */
		List<PipelineResult.Failure> completed(List<RedisWrite> writes, List<PipelineResult.Failure> failures) {
			forget();
			List<PipelineResult.Failure> all = new ArrayList<>(failures);
			for (int i = 0; i < overtaken.length; i++) {
				if (overtaken[i]) {
					all.add(new PipelineResult.Failure(i, writes.get(i), new Overtaken()));
				}
			}
			if (all.size() == failures.size()) {
				return failures;
			}
			all.sort(Comparator.comparingInt(PipelineResult.Failure::index));
			return all;
		}

	}

	/**
	 * A write Redis applied after a later write to the same key; transient, so that it is
	 * written again with the writes after it, in order. Not a connection failure: the
	 * connection stays.
	 */
	static final class Overtaken extends RedisException {

		private static final long serialVersionUID = 1L;

		Overtaken() {
			super("applied after a later write to the same key, which took a shorter way after a MOVED or ASK"
					+ " redirect while slots moved; written again in order");
		}

	}

}
