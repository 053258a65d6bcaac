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

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

import io.sawmill.redis.internal.RedisBatchWriter.Sent;

/**
 * Counts the replies of one batch down and keeps the time the last one arrived, so that
 * the round trip is timed to the reply rather than to the moment the writing thread came
 * back for it (with a batch in flight, that is after it mapped and sent the next one).
 * <p>
 * Counted down on Lettuce's event loop (or by a write's failure listener); awaited by the
 * writing thread, for which the latch orders the time's write before its read.
 */
final class BatchReplies implements BiConsumer<Object, Throwable>, ReplySlot.Replies {

	private final AtomicInteger remaining;

	private final CountDownLatch all = new CountDownLatch(1);

	private volatile long lastArrivedNanos;

	BatchReplies(int count) {
		if (count <= 0) {
			throw new IllegalArgumentException("count must be greater than 0, but was " + count);
		}
		this.remaining = new AtomicInteger(count);
	}

	/** One reply (or failure) arrived; called once per command. */
	void arrived() {
		if (remaining.decrementAndGet() == 0) {
			lastArrivedNanos = System.nanoTime();
			all.countDown();
		}
	}

	/** As the {@link ReplySlot.Replies} of a batch written whole to one channel. */
	@Override
	public void completed(ReplySlot slot, boolean afterRedirect) {
		arrived();
	}

	/** As a completion callback of a Lettuce future. */
	@Override
	public void accept(Object reply, Throwable failure) {
		arrived();
	}

	/** Whether every reply (or failure) arrived and was counted. */
	boolean allArrived() {
		return remaining.get() == 0;
	}

	/**
	 * @return whether every reply arrived within the time given
	 */
	boolean await(long nanos) throws InterruptedException {
		return all.await(nanos, TimeUnit.NANOSECONDS);
	}

	/**
	 * When the last reply arrived ({@link System#nanoTime()}); while some are still
	 * missing (the batch timed out, or a callback has not run yet), the time of this
	 * call.
	 */
	long lastArrivedNanos() {
		long last = lastArrivedNanos;
		return last != 0 ? last : System.nanoTime();
	}

	/**
	 * The batch on the wire whose replies land here; {@code collect} waits for them and
	 * reads their outcome.
	 */
	Sent sent(Supplier<PipelineResult> collect) {
		return new Sent() {
			@Override
			public PipelineResult await() {
				return collect.get();
			}

			@Override
			public long lastReplyNanos() {
				return lastArrivedNanos();
			}
		};
	}

}
