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
package io.sawmill.admin.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.MessageListenerContainer;

import io.sawmill.admin.internal.RoutedTopics.Selection;

/**
 * The topics an operator paused on this instance. They are paused partition by partition
 * ({@link MessageListenerContainer#pausePartition}), while the Redis circuit and the
 * dead-letter brake pause the whole container: the two never undo each other, so the
 * circuit closing does not resume a topic an operator paused, and an operator's resume
 * does not bypass an open circuit or an engaged brake. A container pauses only partitions
 * it owns, so {@link #apply} runs again after every assignment; a route paused by its
 * pattern thereby covers a topic it matches that was created after the pause.
 */
final class OperatorPauses {

	/** How often a pause is checked for having reached the consumers. */
	private static final Duration CONFIRM_POLL = Duration.ofMillis(50);

	private final MessageListenerContainer container;

	private final Set<String> topics = ConcurrentHashMap.newKeySet();

	/** Patterns of routes paused by name, by their regex. */
	private final Map<String, Pattern> patterns = new ConcurrentHashMap<>();

	OperatorPauses(MessageListenerContainer container) {
		this.container = container;
	}

	/**
	 * Pauses the topics and waits, at most {@code wait}, until the consumers have paused
	 * every owned partition of them: after that no new batch of theirs is delivered (a
	 * batch polled before may still be being written).
	 * @return whether every owned partition of them was paused within {@code wait}
	 */
	boolean pause(Selection paused, Duration wait) throws InterruptedException {
		topics.addAll(paused.topics());
		paused.patterns().forEach(pattern -> patterns.put(pattern.pattern(), pattern));
		long deadline = System.nanoTime() + wait.toNanos();
		while (true) {
			apply();
			boolean all = assigned().stream()
				.filter(partition -> paused.covers(partition.topic()))
				.allMatch(container::isPartitionPaused);
			if (all || System.nanoTime() > deadline) {
				return all;
			}
			Thread.sleep(CONFIRM_POLL.toMillis());
		}
	}

	/**
	 * Lifts the pauses named; a partition stays paused while another pause still covers
	 * it (a topic of a route that stays paused).
	 */
	void resume(Selection resumed) {
		if (resumed.everything()) {
			topics.clear();
			patterns.clear();
		}
		topics.removeAll(resumed.topics());
		resumed.patterns().forEach(pattern -> patterns.remove(pattern.pattern()));
		for (TopicPartition partition : assigned()) {
			if (resumed.covers(partition.topic()) && !paused(partition.topic())) {
				container.resumePartition(partition);
			}
		}
	}

	/**
	 * Requests a pause of every owned partition of a paused topic that is not paused yet
	 * (a concurrent container knows only its consumers' pauses, not the requests made
	 * through it).
	 */
	void apply() {
		if (topics.isEmpty() && patterns.isEmpty()) {
			return;
		}
		for (TopicPartition partition : assigned()) {
			if (paused(partition.topic()) && !container.isPartitionPaused(partition)) {
				container.pausePartition(partition);
			}
		}
	}

	boolean paused(String topic) {
		return topics.contains(topic) || patterns.values().stream().anyMatch(p -> p.matcher(topic).matches());
	}

	/** The topics paused by name, then each paused pattern. */
	Set<String> topics() {
		return new Selection(Set.copyOf(topics), Set.copyOf(patterns.values()), false).describe();
	}

	/** The partitions assigned here; never null for Sawmill's concurrent container. */
	private Collection<TopicPartition> assigned() {
		return Objects.requireNonNull(container.getAssignedPartitions(), "a concurrent container lists its partitions");
	}

}
