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
package io.sawmill.bench.e2e.measure;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU time the consumer under test has used so far, in nanoseconds: this JVM's CPU
 * time (user + system, from {@code /proc/self/stat}, so garbage collection and the Kafka
 * client's and Lettuce's threads count) minus the CPU time of the threads that are not
 * the consumer's steady cost: the latency proxy's and the status line's (per thread, from
 * {@link ThreadMXBean}), and the JIT's compiler threads ({@code /proc/self/task};
 * compiling is warm-up, which the benchmark leaves out everywhere else too), each counted
 * until the end of the run, also after the thread ended. The consumers run in this JVM; a
 * difference of two readings is what one of them cost over that span, as long as no other
 * consumer or producer ran meanwhile. Thread-safe.
 */
public final class ConsumerCpu {

	/**
	 * Thread names of the benchmark's own threads: the latency proxy (testkit) and the
	 * status line.
	 */
	private static final List<String> NOT_CONSUMER = List.of("proxy-", "chrt-proxy-", "latency-proxy-", "bench-status");

	private static final Path STAT = Path.of("/proc/self/stat");

	private static final Path TASKS = Path.of("/proc/self/task");

	/**
	 * HotSpot's compiler threads, "C1 CompilerThread0" etc., as Linux' 15-character
	 * thread names.
	 */
	private static final List<String> COMPILER = List.of("C1 CompilerThre", "C2 CompilerThre");

	/**
	 * Linux' USER_HZ (100 on x86-64 and arm64), the unit of {@code /proc/<pid>/stat}'s
	 * utime and stime.
	 */
	private static final long NANOS_PER_TICK = 10_000_000L;

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private ConsumerCpu() {
	}

	/**
	 * The CPU time last read of each excluded thread ever seen: compiler threads by Linux
	 * thread id, the benchmark's own by Java thread id. A thread that ended keeps its
	 * last reading here, as its time stays in the process' total: HotSpot stops and
	 * starts compiler threads as the queue of compilations shrinks and grows, and the
	 * latency proxy's threads end with each cell.
	 */
	private static final Map<Long, Long> COMPILER_SEEN = new HashMap<>();

	private static final Map<Long, Long> OWN_SEEN = new HashMap<>();

	/**
	 * The consumers' CPU time so far; meaningful only as the difference of two readings.
	 */
	public static synchronized long nanos() {
		long process = processNanos();
		for (ThreadInfo thread : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
			if (thread != null && NOT_CONSUMER.stream().anyMatch(thread.getThreadName()::startsWith)) {
				OWN_SEEN.merge(thread.getThreadId(), Math.max(0, THREADS.getThreadCpuTime(thread.getThreadId())),
						Math::max);
			}
		}
		compilerThreads().forEach((tid, nanos) -> COMPILER_SEEN.merge(tid, nanos, Math::max));
		return process - sum(OWN_SEEN) - sum(COMPILER_SEEN);
	}

	private static long sum(Map<Long, Long> seen) {
		return seen.values().stream().mapToLong(Long::longValue).sum();
	}

	/**
	 * The CPU time of the JIT's compiler threads alive now, 0 where {@code /proc} cannot
	 * tell.
	 */
	static long compilerNanos() {
		return compilerThreads().values().stream().mapToLong(Long::longValue).sum();
	}

	/**
	 * The CPU time of each of the JIT's compiler threads alive now, by Linux thread id;
	 * none where {@code /proc} cannot tell.
	 */
	private static Map<Long, Long> compilerThreads() {
		Map<Long, Long> threads = new HashMap<>();
		tasks().forEach((tid, task) -> {
			if (COMPILER.stream().anyMatch(task.name()::startsWith)) {
				threads.put(tid, task.nanos());
			}
		});
		return threads;
	}

	/**
	 * A live thread of this JVM: its Linux name (cut to 15 characters) and the CPU time
	 * it used so far.
	 */
	record Task(String name, long nanos) {
	}

	/**
	 * Every live thread of this JVM by Linux thread id ({@code /proc/self/task}); none
	 * where {@code /proc} cannot tell.
	 */
	static Map<Long, Task> tasks() {
		Map<Long, Task> threads = new HashMap<>();
		try (var tasks = Files.newDirectoryStream(TASKS)) {
			for (Path task : tasks) {
				try {
					String stat = Files.readString(task.resolve("stat"));
					String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
					threads.put(Long.parseLong(task.getFileName().toString()), new Task(name, nanosFromStat(stat)));
				}
				catch (IOException | RuntimeException exited) {
					// the thread ended while being read
				}
			}
		}
		catch (IOException | RuntimeException notLinux) {
			return Map.of();
		}
		return threads;
	}

	/**
	 * Waits (at most {@code max}) until this JVM has used under a tenth of a core for 200
	 * ms, so that compilations and collections left over from earlier runs are not
	 * counted against the next one.
	 */
	static void awaitQuiet(java.time.Duration max) throws InterruptedException {
		long deadline = System.nanoTime() + max.toNanos();
		while (System.nanoTime() < deadline) {
			long before = nanos();
			Thread.sleep(200);
			if (nanos() - before <= 20_000_000L) {
				return;
			}
		}
	}

	/**
	 * This JVM's user + system CPU time: {@code /proc/self/stat} on Linux, else the
	 * platform MXBean.
	 */
	static long processNanos() {
		try {
			return nanosFromStat(Files.readString(STAT));
		}
		catch (IOException | RuntimeException notLinux) {
			return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
				.getProcessCpuTime();
		}
	}

	/**
	 * utime + stime, fields 14 and 15 of {@code /proc/<pid>/stat}, counted after the
	 * command name, which is in parentheses and may itself hold spaces and parentheses.
	 */
	static long nanosFromStat(String stat) {
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		// fields[0] is field 3 (state)
		return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NANOS_PER_TICK;
	}

}
