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
package io.sawmill.health.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * The state of Sawmill's listener containers: {@code running}, {@code paused} (pause
 * requested and every consumer paused), {@code pausing} (requested, not yet in effect) or
 * {@code stopped}; for a concurrent container also each consumer thread's state and
 * assigned partition count.
 * <p>
 * Up while every container and every one of its consumers runs, paused or not: a paused
 * consumer still polls (and so keeps its partitions), and restarting the pod would not
 * resume it. Down when a container or one of its consumers has stopped — no records of
 * its partitions are processed — and down, with the reason under {@code stalled}, while a
 * consumer thread has records it has not been able to commit for longer than
 * {@code sawmill.redelivery.stall-timeout}.
 */
public final class ListenerContainerHealth {

	private final Supplier<List<MessageListenerContainer>> containers;

	private final Supplier<String> pauseReason;

	private final Supplier<String> stallReason;

	/**
	 * As {@link #ListenerContainerHealth(Supplier, Supplier, Supplier)}, without stall
	 * reports.
	 */
	public ListenerContainerHealth(Supplier<List<MessageListenerContainer>> containers, Supplier<String> pauseReason) {
		this(containers, pauseReason, () -> null);
	}

	/**
	 * @param containers the containers to check, looked up on every check
	 * @param pauseReason why consumption is paused (e.g. "redis circuit OPEN"), or null
	 * if unknown; asked only when a container is paused
	 * @param stallReason why a consumer thread makes no progress, or null while all of
	 * them do
	 */
	public ListenerContainerHealth(Supplier<List<MessageListenerContainer>> containers, Supplier<String> pauseReason,
			Supplier<String> stallReason) {
		this.containers = containers;
		this.pauseReason = pauseReason;
		this.stallReason = stallReason;
	}

	public HealthReport check() {
		boolean up = true;
		Map<String, Object> details = new LinkedHashMap<>();
		for (MessageListenerContainer container : containers.get()) {
			Map<String, Object> state = new LinkedHashMap<>();
			String current = state(container);
			state.put("state", current);
			if (current.startsWith("paus")) {
				String reason = pauseReason.get();
				if (reason != null) {
					state.put("reason", reason);
				}
			}
			up &= container.isRunning();
			if (container instanceof ConcurrentMessageListenerContainer<?, ?> concurrent) {
				List<Map<String, Object>> consumers = new ArrayList<>();
				for (MessageListenerContainer child : concurrent.getContainers()) {
					Map<String, Object> consumer = new LinkedHashMap<>();
					consumer.put("state", state(child));
					consumer.put("partitions",
							child.getAssignedPartitions() == null ? 0 : child.getAssignedPartitions().size());
					consumers.add(consumer);
					up &= child.isRunning();
				}
				state.put("consumers", consumers);
			}
			details.put(name(container), state);
		}
		String stalled = stallReason.get();
		if (stalled != null) {
			details.put("stalled", stalled);
			up = false;
		}
		return new HealthReport(up, details);
	}

	/**
	 * How many of the containers have a pause requested or in effect; the
	 * {@code sawmill.listener.paused} gauge.
	 */
	public long paused() {
		return containers.get().stream().filter(c -> c.isRunning() && c.isPauseRequested()).count();
	}

	static String state(MessageListenerContainer container) {
		if (!container.isRunning()) {
			return "stopped";
		}
		if (container.isPauseRequested()) {
			return container.isContainerPaused() ? "paused" : "pausing";
		}
		return "running";
	}

	private static String name(MessageListenerContainer container) {
		String id = container.getListenerId();
		return id != null ? id : String.valueOf(container);
	}

}
