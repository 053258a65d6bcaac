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
package io.sawmill.bench.e2e.run;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The live status line: which step runs, how far it is and its rate, refreshed every
 * second (in place on a terminal, every five seconds as a new line otherwise). Also
 * tracks the peak heap used.
 */
public final class Status implements AutoCloseable {

	private final PrintStream out;

	private final boolean terminal = System.console() != null;

	private final long started = System.nanoTime();

	private final Thread thread;

	private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

	private final AtomicLong peakHeap = new AtomicLong();

	private volatile String step = "starting";

	private volatile long expected;

	private volatile LongSupplier done = () -> 0;

	private volatile long stepStarted = System.nanoTime();

	private int ticks;

	public Status(PrintStream out) {
		this.out = out;
		this.thread = new Thread(this::loop, "bench-status");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	/** A new step: {@code done} counts towards {@code expected} (0 = no count). */
	public synchronized void step(String name, long expected, LongSupplier done) {
		this.step = name;
		this.expected = expected;
		this.done = done;
		this.stepStarted = System.nanoTime();
		peakHeap.set(0);
	}

	/** Prints a line that stays (above the status line on a terminal). */
	public synchronized void println(String line) {
		out.print(terminal ? "\r\033[K" + line + "\n" : line + "\n");
		out.flush();
	}

	/** Peak heap used since the current step began, sampled every 200 ms. */
	long peakHeapBytes() {
		return peakHeap.get();
	}

	private void loop() {
		while (!Thread.currentThread().isInterrupted()) {
			try {
				Thread.sleep(200);
			}
			catch (InterruptedException ex) {
				return;
			}
			peakHeap.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
			if (++ticks % (terminal ? 5 : 25) == 0) {
				print();
			}
		}
	}

	private synchronized void print() {
		double stepSeconds = (System.nanoTime() - stepStarted) / 1e9;
		long total = (System.nanoTime() - started) / 1_000_000_000L;
		long count = done.getAsLong();
		String progress = expected > 0 ? String.format(Locale.ROOT, " %,d/%,d (%3.0f%%) %,.0f/s", count, expected,
				100.0 * count / expected, count / Math.max(0.001, stepSeconds)) : "";
		String line = String.format(Locale.ROOT, "[%d:%02d] %s%s, %.0f s, heap %d MB", total / 60, total % 60, step,
				progress, stepSeconds, memory.getHeapMemoryUsage().getUsed() >> 20);
		out.print(terminal ? "\r\033[K" + line : line + "\n");
		out.flush();
	}

	@Override
	public void close() {
		thread.interrupt();
		if (terminal) {
			out.print("\r\033[K");
		}
	}

}
