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

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Gauge;
import io.sawmill.metrics.internal.SawmillMetrics;

/**
 * Whether a container's consumer threads make progress, and how long a failed batch waits
 * before it is polled again.
 * <p>
 * Each consumer thread counts its consecutive failed deliveries (a batch not committed
 * and polled again). The wait before the next poll of a failed batch doubles with each of
 * them, from {@link ListenerConfig#redeliveryInitialBackoff()} up to
 * {@link ListenerConfig#redeliveryMaxBackoff()}, so a batch that cannot be committed is
 * never polled in a hot loop. A committed batch resets the thread's count. A thread whose
 * first failure since its last commit is older than {@link ListenerConfig#stallTimeout()}
 * is <em>stalled</em>: it has records it cannot commit.
 * <p>
 * Thread-safe: consumer threads report, health checks and gauges read. Meters
 * (group-tagged): {@code sawmill.listener.stalled} (stalled threads) and
 * {@code sawmill.listener.consecutive.failures} (the most consecutive failed deliveries
 * of any thread).
 */
public final class ListenerProgress {

	private final Duration initialBackoff;

	private final Duration maxBackoff;

	private final Duration stallTimeout;

	private final Clock clock;

	private final Map<Thread, Failing> failing = new ConcurrentHashMap<>();

	/** One thread's failures since its last commit. */
	private record Failing(int consecutive, Instant since, String lastReason) {
	}

	private ListenerProgress(ListenerConfig config, Clock clock) {
		this.initialBackoff = config.redeliveryInitialBackoff();
		this.maxBackoff = config.redeliveryMaxBackoff();
		this.stallTimeout = config.stallTimeout();
		this.clock = clock;
	}

	/**
	 * Tracks progress with {@code clock} and registers its gauges with {@code metrics}.
	 */
	public static ListenerProgress of(ListenerConfig config, SawmillMetrics metrics, Clock clock) {
		ListenerProgress progress = new ListenerProgress(config, clock);
		Gauge.builder("sawmill.listener.stalled", progress, ListenerProgress::stalledThreads)
			.description(
					"Consumer threads with records they have not committed for longer than sawmill.redelivery.stall-timeout")
			.tag("group", metrics.group())
			.strongReference(true)
			.register(metrics.registry());
		Gauge.builder("sawmill.listener.consecutive.failures", progress, ListenerProgress::consecutiveFailures)
			.description("The most consecutive failed deliveries (batches polled again) of any consumer thread")
			.tag("group", metrics.group())
			.strongReference(true)
			.register(metrics.registry());
		return progress;
	}

	/**
	 * The calling consumer thread's batch was not committed and will be polled again.
	 * @return how long to wait before it is polled again
	 */
	Duration failed(Object reason) {
		Instant now = clock.instant();
		Failing after = failing.compute(Thread.currentThread(),
				(thread, before) -> before == null ? new Failing(1, now, String.valueOf(reason))
						: new Failing(before.consecutive() + 1, before.since(), String.valueOf(reason)));
		return backoff(after.consecutive());
	}

	/** The calling consumer thread committed a batch. */
	void committed() {
		if (!failing.isEmpty()) {
			failing.remove(Thread.currentThread());
		}
	}

	/**
	 * The wait before the {@code failures}-th consecutive failed batch is polled again.
	 */
	Duration backoff(int failures) {
		int doublings = Math.min(Math.max(failures - 1, 0), 30);
		Duration backoff = initialBackoff.multipliedBy(1L << doublings);
		return backoff.compareTo(maxBackoff) > 0 ? maxBackoff : backoff;
	}

	/**
	 * Why the listener is stalled, or empty while every consumer thread makes progress.
	 */
	public Optional<String> stall() {
		Instant now = clock.instant();
		return liveEntries().filter(e -> stalled(e.getValue(), now))
			.findFirst()
			.map(e -> e.getKey().getName() + " has not committed a batch for "
					+ Duration.between(e.getValue().since(), now).toSeconds() + " s (" + e.getValue().consecutive()
					+ " consecutive failed deliveries, last: " + e.getValue().lastReason() + ")");
	}

	/** How many consumer threads are stalled. */
	public int stalledThreads() {
		Instant now = clock.instant();
		return (int) liveEntries().filter(e -> stalled(e.getValue(), now)).count();
	}

	/**
	 * The most consecutive failed deliveries of any consumer thread; 0 when all of them
	 * committed last.
	 */
	public int consecutiveFailures() {
		return liveEntries().mapToInt(e -> e.getValue().consecutive()).max().orElse(0);
	}

	private boolean stalled(Failing failures, Instant now) {
		return Duration.between(failures.since(), now).compareTo(stallTimeout) >= 0;
	}

	/** A thread that ended (its container stopped) no longer counts. */
	private Stream<Map.Entry<Thread, Failing>> liveEntries() {
		failing.keySet().removeIf(thread -> !thread.isAlive());
		return failing.entrySet().stream();
	}

}
