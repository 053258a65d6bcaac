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

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * One task run on a daemon thread of its own at a fixed delay, started and stopped with
 * the lifecycle of the meter source that owns it (lag monitor, RTT probe, summary line).
 */
final class PeriodicTask {

	private final String threadName;

	private final Runnable task;

	private final Duration initialDelay;

	private final Duration interval;

	private volatile @Nullable ScheduledExecutorService scheduler;

	PeriodicTask(String threadName, Runnable task, Duration initialDelay, Duration interval) {
		this.threadName = threadName;
		this.task = task;
		this.initialDelay = initialDelay;
		this.interval = interval;
	}

	/** An action of a periodic task that may fail. */
	interface Action {

		void run() throws Exception;

	}

	/**
	 * Runs {@code action}, logging a failure as one WARN line that starts with
	 * {@code failure}; an interrupt ends the run and keeps the thread's interrupt flag.
	 */
	static Runnable warningOnFailure(Action action, Logger log, Supplier<String> failure) {
		return () -> {
			try {
				action.run();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (Exception ex) {
				log.warn("{}: {}", failure.get(), ex.toString());
			}
		};
	}

	void start() {
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
			Thread thread = new Thread(runnable, threadName);
			thread.setDaemon(true);
			return thread;
		});
		executor.scheduleWithFixedDelay(task, initialDelay.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
		scheduler = executor;
	}

	/** Runs the task once more now, on the task's thread, if it is running. */
	void runNow() {
		submit();
	}

	/**
	 * Runs the task once more now, on the task's thread.
	 * @return the run, to wait for; null when the task is not running
	 */
	@Nullable Future<?> submit() {
		ScheduledExecutorService executor = scheduler;
		if (executor == null) {
			return null;
		}
		try {
			return executor.submit(task);
		}
		catch (RejectedExecutionException ex) {
			return null; // stopped meanwhile
		}
	}

	/** Stops the thread, waiting up to {@code await} for a run in progress. */
	void stop(Duration await) {
		ScheduledExecutorService executor = scheduler;
		scheduler = null;
		if (executor == null) {
			return;
		}
		executor.shutdownNow();
		if (!await.isZero()) {
			try {
				executor.awaitTermination(await.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	boolean isRunning() {
		return scheduler != null;
	}

}
