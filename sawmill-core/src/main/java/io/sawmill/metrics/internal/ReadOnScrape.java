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
package io.sawmill.metrics.internal;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;

/**
 * Keeps gauges that a {@link PeriodicTask} reads from the broker fresh when they are
 * read: a gauge read (a scrape) whose values are older than {@link #MAX_AGE} has the task
 * read them again at once and waits for that read, at most {@link #WAIT}; past that it
 * gets the last values and the read finishes in the background. One read serves every
 * gauge of a scrape and every scraper within {@link #MAX_AGE}; between scrapes the task
 * still reads every interval.
 * <p>
 * Called from any thread that reads a gauge; the reads run on the task's thread only.
 */
final class ReadOnScrape {

	/** The oldest values a gauge read accepts without reading again. */
	static final Duration MAX_AGE = Duration.ofSeconds(1);

	/** How long a gauge read waits for the read it asked for. */
	static final Duration WAIT = Duration.ofSeconds(2);

	private final PeriodicTask task;

	private final Clock clock;

	private final Object asking = new Object();

	private @Nullable Future<?> reading;

	private volatile boolean read;

	private volatile long lastRead;

	ReadOnScrape(PeriodicTask task, Clock clock) {
		this.task = task;
		this.clock = clock;
	}

	/** Called by the task's read when it starts: its values are as of now. */
	void reading() {
		lastRead = clock.millis();
		read = true;
	}

	/**
	 * Has the values read again unless they are recent or the task is stopped, and waits
	 * for them at most {@link #WAIT}.
	 */
	void freshen() {
		Future<?> pending;
		synchronized (asking) {
			if (reading == null || reading.isDone()) {
				if (read && clock.millis() - lastRead < MAX_AGE.toMillis()) {
					return;
				}
				reading = task.submit();
			}
			pending = reading;
		}
		if (pending == null) {
			return;
		}
		try {
			pending.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// the last values stay; the task logs a failed read
		}
	}

}
