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
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.jspecify.annotations.Nullable;

/**
 * The one place that pauses and resumes Sawmill's listener container: all of it while the
 * Redis circuit is open, and single partitions for the backoff before a failed batch is
 * polled again.
 * <p>
 * A paused consumer keeps polling (and so keeps its partitions and its place in the
 * group); the container applies a pause or resume on the consumer thread before its next
 * poll, and a resume wakes a consumer blocked in poll. A partition's backoff ends on a
 * timer thread; a later backoff of the same partition replaces an earlier one.
 * <p>
 * Thread-safe.
 */
final class ContainerPauses {

	/** Runs a task after a delay; replaced in tests. */
	@FunctionalInterface
	interface Timer {

		void after(Duration delay, Runnable task);

		/** A shared daemon timer of the JDK: no thread of Sawmill's own to stop. */
		Timer JDK = (delay, task) -> CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS)
			.execute(task);

	}

	private final Timer timer;

	private final AtomicLong backoffs = new AtomicLong();

	private final Map<TopicPartition, Long> backingOff = new ConcurrentHashMap<>();

	private volatile @Nullable ConcurrentMessageListenerContainer<?, ?> container;

	ContainerPauses(Timer timer) {
		this.timer = timer;
	}

	/** The container to pause and resume; until it is set, nothing is paused. */
	void control(ConcurrentMessageListenerContainer<?, ?> container) {
		this.container = container;
	}

	/** Pauses every consumer of the container (they keep polling, so no rebalance). */
	void pauseAll() {
		MessageListenerContainer target = container;
		if (target != null) {
			target.pause();
		}
	}

	void resumeAll() {
		MessageListenerContainer target = container;
		if (target != null) {
			target.resume();
		}
	}

	/**
	 * Pauses {@code partitions} for {@code backoff}, then resumes them. Called on the
	 * consumer thread that owns them, after it sought them back: the next poll returns
	 * their records after the backoff, and the consumer's other partitions go on
	 * meanwhile.
	 */
	void backOff(Collection<TopicPartition> partitions, Duration backoff) {
		ConcurrentMessageListenerContainer<?, ?> target = container;
		if (target == null || partitions.isEmpty()) {
			return;
		}
		for (TopicPartition partition : partitions) {
			long token = backoffs.incrementAndGet();
			backingOff.put(partition, token);
			target.pausePartition(partition);
			timer.after(backoff, () -> {
				if (backingOff.remove(partition, token)) {
					// on every consumer: the partition may have moved to another thread
					// meanwhile
					target.getContainers().forEach(consumer -> consumer.resumePartition(partition));
				}
			});
		}
	}

}
