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
package io.sawmill.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The pooled threads of a {@link LatencyProxy}, switched to {@code SCHED_FIFO} (Linux
 * only: by their thread id, with {@code chrt}) where
 * {@link LatencyProxy.Priority#REALTIME} is asked for and the kernel allows it, and how a
 * thread waits until a chunk is due. Thread-safe.
 */
final class ProxyThreads {

	/** Parking wakes up this much late on Linux (timer slack); the remainder is spun. */
	private static final long SPIN_NANOS = 80_000;

	/** Real-time threads have no timer slack: parking wakes within a few microseconds. */
	private static final long REALTIME_SPIN_NANOS = 20_000;

	/**
	 * The {@code SCHED_FIFO} priority of the proxy's threads (1–99; above every normal
	 * thread at any value).
	 */
	private static final int REALTIME_PRIORITY = 10;

	/** Whether the current pool thread runs as {@code SCHED_FIFO} yet. */
	private static final ThreadLocal<AtomicBoolean> SWITCHED = ThreadLocal.withInitial(AtomicBoolean::new);

	private final boolean realtime;

	private final ExecutorService pool;

	/**
	 * Switches new pool threads to {@code SCHED_FIFO} one by one, off the data path (a
	 * process start each).
	 */
	private final ExecutorService scheduler;

	private final AtomicLong realtimeThreads = new AtomicLong();

	private final AtomicLong normalThreads = new AtomicLong();

	private volatile String realtimeRefused;

	ProxyThreads(int port, boolean realtime) {
		this.realtime = realtime;
		AtomicInteger counter = new AtomicInteger();
		// "proxy-<port>-<n>": short enough for Linux' 15-character thread names (ps, top,
		// /proc)
		this.pool = Executors.newCachedThreadPool(task -> {
			Thread thread = new Thread(() -> {
				schedule();
				task.run();
			}, "proxy-" + port + "-" + counter.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler = Executors.newSingleThreadExecutor(task -> {
			Thread thread = new Thread(task, "chrt-proxy-" + port);
			thread.setDaemon(true);
			return thread;
		});
	}

	/**
	 * Runs {@code task} on a pool thread.
	 * @throws RejectedExecutionException once {@link #shutdown() shut down}
	 */
	void execute(Runnable task) {
		pool.execute(task);
	}

	long realtimeThreads() {
		return realtimeThreads.get();
	}

	long normalThreads() {
		return normalThreads.get();
	}

	/** Why {@code SCHED_FIFO} was refused, the last time it was; null if never. */
	String realtimeRefused() {
		return realtimeRefused;
	}

	void shutdown() {
		pool.shutdown();
		scheduler.shutdown();
	}

	/**
	 * Run once by each new pool thread before its first task: if real-time scheduling is
	 * wanted, hands the thread to the {@link #scheduler}, which switches it to
	 * {@code SCHED_FIFO} while the thread goes on with its task (starting {@code chrt}
	 * takes milliseconds, more on a busy machine).
	 */
	private void schedule() {
		if (!realtime || realtimeRefused != null) {
			normalThreads.incrementAndGet();
			return;
		}
		String threadId = currentThreadId();
		AtomicBoolean switched = SWITCHED.get();
		try {
			scheduler.execute(() -> {
				String refused = realtimeRefused != null ? realtimeRefused : switchThread(threadId, REALTIME_PRIORITY);
				if (refused == null) {
					switched.set(true);
					realtimeThreads.incrementAndGet();
				}
				else {
					realtimeRefused = refused;
					normalThreads.incrementAndGet();
				}
			});
		}
		catch (RejectedExecutionException ex) {
			normalThreads.incrementAndGet(); // closed meanwhile
		}
	}

	/**
	 * Returns at {@code due} ({@link System#nanoTime()}): parks until shortly before, by
	 * the calling thread's timer slack, and spins for the rest.
	 */
	static void awaitDue(long due) {
		long spin = SWITCHED.get().get() ? REALTIME_SPIN_NANOS : SPIN_NANOS;
		long remaining;
		while ((remaining = due - System.nanoTime()) > 0) {
			if (remaining > spin) {
				LockSupport.parkNanos(remaining - spin);
			}
			else {
				Thread.onSpinWait();
			}
		}
	}

	/**
	 * The kernel's id of the calling thread, or null where {@code /proc/thread-self} does
	 * not exist.
	 */
	private static String currentThreadId() {
		try {
			// "<pid>/task/<tid>"
			return Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
		}
		catch (IOException | UnsupportedOperationException ex) {
			return null;
		}
	}

	/**
	 * @return null once the thread runs as {@code SCHED_FIFO}, otherwise why not
	 */
	private static String switchThread(String threadId, int priority) {
		if (threadId == null) {
			return "no /proc/thread-self (not Linux?)";
		}
		try {
			Process chrt = new ProcessBuilder("chrt", "--fifo", "--pid", Integer.toString(priority), threadId)
				.redirectErrorStream(true)
				.start();
			String output = new String(chrt.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			if (!chrt.waitFor(5, TimeUnit.SECONDS)) {
				chrt.destroyForcibly();
				return "chrt did not finish within 5 s";
			}
			return chrt.exitValue() == 0 ? null : "chrt exited with " + chrt.exitValue() + ": " + output;
		}
		catch (IOException ex) {
			return "chrt could not run: " + ex.getMessage();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "interrupted";
		}
	}

}
