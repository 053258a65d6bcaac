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
package io.sawmill.deadletter.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.metrics.RecordOutcome;

/**
 * Stops Sawmill from draining a topic into its dead-letter topic. When too many recent
 * records are dead-lettered ({@link DeadLetterBrakeConfig}: a share of a partition's last
 * records, or a number per minute), the brake engages: the batch that tripped it is
 * neither published nor committed, every later batch is refused too, and the
 * {@link #onEngaged} actions run (Sawmill pauses its listener containers). It stays
 * engaged until an operator {@link #release releases} it, or until it releases itself
 * {@link DeadLetterBrakeConfig#releaseAfter()} after it engaged (a timer of its own,
 * stopped by {@link #close}); each automatic release in a row, the brake engaging again
 * within the last wait, doubles the next wait, up to
 * {@link DeadLetterBrakeConfig#MAX_RELEASE_BACKOFF} times.
 * <p>
 * The rules are checked <em>before</em> the dead letters are handed on, so that a batch
 * that breaks them leaves nothing in the dead-letter topic and nothing committed: at most
 * {@link DeadLetterBrakeConfig#deadLettersToTrip()} − 1 dead letters of one partition are
 * published before the brake engages. Its state lives in memory only: a restarted
 * instance starts with an empty window and, if the cause persists, engages again after
 * the same bound.
 * <p>
 * Thread-safe: listener threads publish through {@link #guard guarded} publishers
 * concurrently.
 */
public final class DeadLetterBrake implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(DeadLetterBrake.class);

	private final DeadLetterBrakeConfig config;

	private final Clock clock;

	private final DeadLetterWindow window;

	private final List<Runnable> onEngaged = new CopyOnWriteArrayList<>();

	private final List<Runnable> onReleased = new CopyOnWriteArrayList<>();

	private volatile @Nullable Trip trip;

	/** When the engaged brake releases itself; null while released or without timer. */
	private volatile @Nullable Instant releasesAt;

	/** Automatic releases in a row, each followed by another engagement. */
	private int automaticInARow;

	private @Nullable Instant lastAutomaticRelease;

	private @Nullable Duration lastWait;

	private final @Nullable ScheduledExecutorService timer;

	/**
	 * Why the brake engaged.
	 *
	 * @param topic the source topic of the dead letter that tripped it
	 * @param partition its partition
	 * @param offset its offset
	 * @param reason why that record could not be written
	 * @param rule the rule it broke, with the configured limit
	 * @param at when
	 */
	public record Trip(String topic, int partition, long offset, String reason, String rule, Instant at) {

		/** One line for logs, health and exceptions. */
		public String describe() {
			return rule + "; last: " + topic + "-" + partition + "@" + offset + ": " + reason;
		}
	}

	private DeadLetterBrake(DeadLetterBrakeConfig config, Clock clock) {
		this.config = config;
		this.clock = clock;
		this.window = new DeadLetterWindow(config);
		this.timer = config.releaseAfter().isZero() ? null : Executors.newSingleThreadScheduledExecutor(runnable -> {
			Thread thread = new Thread(runnable, "sawmill-dead-letter-brake");
			thread.setDaemon(true);
			return thread;
		});
	}

	public static DeadLetterBrake of(DeadLetterBrakeConfig config, Clock clock) {
		return new DeadLetterBrake(config, clock);
	}

	/**
	 * A publisher that hands dead letters to {@code delegate} only while the brake is
	 * released.
	 */
	public DeadLetterPublisher guard(DeadLetterPublisher delegate) {
		return new Guarded(delegate);
	}

	/**
	 * Runs {@code action} when the brake engages and again at each refused batch (so a
	 * container that something else resumed is paused again): it must be idempotent and
	 * must not block.
	 */
	public void onEngaged(Runnable action) {
		onEngaged.add(action);
	}

	/** Runs {@code action} when an engaged brake is released. */
	public void onReleased(Runnable action) {
		onReleased.add(action);
	}

	/** Why the brake is engaged, or empty while it is released. */
	public Optional<Trip> engaged() {
		return Optional.ofNullable(trip);
	}

	public DeadLetterBrakeConfig config() {
		return config;
	}

	/**
	 * When the engaged brake releases itself; empty while it is released, or when only an
	 * operator releases it.
	 */
	public Optional<Instant> releasesAt() {
		return Optional.ofNullable(releasesAt);
	}

	/**
	 * Releases the brake: the windows start empty, the {@link #onReleased} actions run
	 * (Sawmill resumes its containers) and the refused batches are polled again. If their
	 * records still fail, the brake engages again after the same bound, and its next
	 * automatic release waits the first wait again.
	 * @return the trip released, or empty if the brake was not engaged
	 */
	public Optional<Trip> release() {
		Trip released;
		synchronized (this) {
			released = releaseNow();
			automaticInARow = 0;
			lastAutomaticRelease = null;
		}
		if (released != null) {
			log.warn("Dead-letter brake released by an operator (it engaged at {}: {}); consumption resumes",
					released.at(), released.describe());
			onReleased.forEach(Runnable::run);
		}
		return Optional.ofNullable(released);
	}

	/**
	 * Releases the brake if its automatic release is due ({@link #releasesAt}); the timer
	 * calls it.
	 * @return the trip released, or empty if none was due
	 */
	public Optional<Trip> releaseIfDue() {
		Trip released;
		Duration waited;
		synchronized (this) {
			Instant due = releasesAt;
			if (trip == null || due == null || clock.instant().isBefore(due)) {
				return Optional.empty();
			}
			waited = lastWait;
			released = Objects.requireNonNull(releaseNow(), "the trip checked above");
			automaticInARow++;
			lastAutomaticRelease = clock.instant();
		}
		log.warn(
				"Dead-letter brake released automatically after {} (sawmill.dead-letter.brake.release-after; it "
						+ "engaged at {}: {}); consumption resumes, and if the records still fail it engages again",
				waited, released.at(), released.describe());
		onReleased.forEach(Runnable::run);
		return Optional.of(released);
	}

	/** Stops the timer of the automatic release. */
	@Override
	public void close() {
		if (timer != null) {
			timer.shutdownNow();
		}
	}

	private @Nullable Trip releaseNow() {
		Trip released = trip;
		window.clear();
		trip = null;
		releasesAt = null;
		return released;
	}

	/**
	 * @throws DeadLetterBrakeEngagedException when the brake is engaged, or these dead
	 * letters engage it
	 */
	void check(List<DeadLetter> deadLetters) {
		Trip engaged = trip;
		if (engaged == null && !deadLetters.isEmpty()) {
			synchronized (this) {
				engaged = trip;
				if (engaged == null) {
					DeadLetterWindow.Breach breach = window.add(deadLetters, clock.millis());
					if (breach != null) {
						engaged = engage(breach);
					}
				}
			}
		}
		if (engaged != null) {
			onEngaged.forEach(Runnable::run);
			throw new DeadLetterBrakeEngagedException(
					"dead-letter brake engaged, batch not committed until it is released: " + engaged.describe());
		}
	}

	private Trip engage(DeadLetterWindow.Breach breach) {
		DeadLetter deadLetter = breach.deadLetter();
		Instant now = clock.instant();
		Trip engaged = new Trip(deadLetter.record().topic(), deadLetter.record().partition(),
				deadLetter.record().offset(), deadLetter.reason(), breach.rule(), now);
		trip = engaged;
		String release = "an operator releases it";
		if (timer != null) {
			Duration wait = nextWait(now);
			lastWait = wait;
			releasesAt = now.plus(wait);
			timer.schedule(this::releaseIfDue, wait.toMillis(), TimeUnit.MILLISECONDS);
			release = "it releases itself at " + releasesAt + " (after " + wait + "), or " + release;
		}
		log.error("Dead-letter brake engaged: {}. Consumption is paused and nothing more is committed or dead-lettered "
				+ "until {} (POST /actuator/sawmill/brake {\"action\":\"release\"}, "
				+ "docs/operations.md#dead-letter-brake).", engaged.describe(), release);
		return engaged;
	}

	/**
	 * The wait before the automatic release: the configured one, doubled for each
	 * automatic release in a row (the brake engaging again within the last wait after
	 * it).
	 */
	private Duration nextWait(Instant now) {
		if (lastAutomaticRelease == null || lastWait == null
				|| Duration.between(lastAutomaticRelease, now).compareTo(lastWait) >= 0) {
			automaticInARow = 0;
		}
		int factor = Math.min(1 << Math.min(automaticInARow, 30), DeadLetterBrakeConfig.MAX_RELEASE_BACKOFF);
		return config.releaseAfter().multipliedBy(factor);
	}

	/** The brake in front of a publisher. */
	private final class Guarded implements DeadLetterPublisher {

		private final DeadLetterPublisher delegate;

		Guarded(DeadLetterPublisher delegate) {
			this.delegate = delegate;
		}

		@Override
		public void publish(List<DeadLetter> deadLetters) {
			check(deadLetters);
			delegate.publish(deadLetters);
		}

		@Override
		public RecordOutcome outcome() {
			return delegate.outcome();
		}

	}

}
