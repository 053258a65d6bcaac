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
package io.sawmill.bench.startup;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * One start of the packaged service as a child process, timed from just before the
 * process is forked to the first offset its consumer group commits, with the milestones
 * its log shows on the way (Spring's "Started … in", the partitions assigned), then to
 * the commit of the topic's last record.
 * <p>
 * The first commit is read from the broker ({@link Admin#listConsumerGroupOffsets}),
 * polled every {@link #POLL}: a committed offset is the end of the path a user waits for
 * (the batch is in Redis and will not be consumed again), and the broker is the one place
 * that sees it without reading the child's log, whose lines are written before the work
 * they announce is done.
 */
final class ServiceLaunch {

	static final Duration POLL = Duration.ofMillis(5);

	private static final Duration TIMEOUT = Duration.ofSeconds(120);

	/** What Sawmill logs when its start-up checks have passed. */
	static final String STARTUP_CHECKS_PASSED = "Sawmill start-up checks passed";

	/**
	 * A JVM's unified-logging warning or error about its CDS archive or AOT cache, e.g.
	 * "[warning][cds] … Unable to use shared archive" or, for a missing AOT cache, only
	 * "[error ][aot] An error has occurred while processing the AOT cache" (the level
	 * padded when other lines have longer tags).
	 */
	private static final Pattern ARCHIVE_PROBLEM = Pattern.compile("\\[(warning|error) *\\]\\[(cds|aot)[,\\] ]");

	/**
	 * What one start took, in milliseconds from the fork; -1 when the log did not show
	 * the milestone.
	 *
	 * @param startingMs when Spring logged "Starting": the JVM is up and the
	 * application's main method runs
	 * @param checkedMs when Sawmill logged that its start-up checks passed
	 * @param cpuMs the CPU time (user + system, all threads) the service had used at its
	 * first commit: unlike the wall times, it hardly depends on how busy the rest of the
	 * machine is
	 * @param allCommittedMs when the committed offsets covered every record of the topic
	 */
	record Timing(long firstCommitMs, long startingMs, long checkedMs, long startedMs, long assignedMs, long cpuMs,
			long allCommittedMs) {
	}

	private ServiceLaunch() {
	}

	/**
	 * Runs {@code command} in {@code directory} ({@code null}: this one), its output to
	 * {@code log}; waits for {@code group}'s first committed offset, then for offsets
	 * that add up to {@code records}, then stops the process (SIGTERM) and waits for it
	 * to exit.
	 */
	static Timing run(List<String> command, Path directory, Path log, Admin admin, String group, long records) {
		long forked = System.nanoTime();
		Process process;
		try {
			process = new ProcessBuilder(command).directory(directory == null ? null : directory.toFile())
				.redirectErrorStream(true)
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("could not start " + command, ex);
		}
		LogWatcher watcher = new LogWatcher(process, log, forked);
		watcher.start();
		try {
			long firstCommit = awaitCommitted(process, admin, group, forked, 1);
			long cpu = cpuMs(process.pid());
			watcher.threadCpu = threadCpuMs(process.pid());
			long allCommitted = awaitCommitted(process, admin, group, forked, records);
			return new Timing(firstCommit, watcher.startingMs, watcher.checkedMs, watcher.startedMs, watcher.assignedMs,
					cpu, allCommitted);
		}
		finally {
			stop(process);
			try {
				watcher.join(TimeUnit.SECONDS.toMillis(10));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * When {@code group}'s committed offsets first add up to at least {@code records}, in
	 * ms since the fork.
	 */
	private static long awaitCommitted(Process process, Admin admin, String group, long forked, long records) {
		long deadline = forked + TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			if (!process.isAlive()) {
				throw new IllegalStateException(
						"the service exited with " + process.exitValue() + " before committing");
			}
			try {
				Map<?, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
					.partitionsToOffsetAndMetadata()
					.get(10, TimeUnit.SECONDS);
				long now = System.nanoTime();
				long sum = committed.values()
					.stream()
					.filter(offset -> offset != null)
					.mapToLong(OffsetAndMetadata::offset)
					.sum();
				if (sum >= records) {
					return TimeUnit.NANOSECONDS.toMillis(now - forked);
				}
				Thread.sleep(POLL.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			catch (Exception ex) {
				throw new IllegalStateException("reading the committed offsets of " + group + " failed", ex);
			}
		}
		throw new IllegalStateException("offsets adding up to " + records + " not committed within " + TIMEOUT);
	}

	/**
	 * Whether the child's output line says that its JVM could not use the archive or
	 * cache it was given.
	 */
	static boolean archiveProblem(String line) {
		return ARCHIVE_PROBLEM.matcher(line).find();
	}

	/**
	 * utime + stime of {@code /proc/<pid>/stat}, in clock ticks of 10 ms (Linux'
	 * USER_HZ); -1 elsewhere.
	 */
	private static long cpuMs(long pid) {
		return cpuMs(Path.of("/proc", Long.toString(pid), "stat"));
	}

	private static long cpuMs(Path stat) {
		try {
			String line = Files.readString(stat);
			String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
			return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10;
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

	/**
	 * CPU per kind of thread (its name without digits: the JIT compilers, GC, main, …),
	 * for the log.
	 */
	private static Map<String, Long> threadCpuMs(long pid) {
		Map<String, Long> byKind = new java.util.TreeMap<>();
		try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
			tasks.forEach(task -> {
				try {
					String kind = Files.readString(task.resolve("comm")).trim().replaceAll("[0-9]+", "#");
					byKind.merge(kind, Math.max(0, cpuMs(task.resolve("stat"))), Long::sum);
				}
				catch (IOException ex) {
					// the thread ended meanwhile
				}
			});
		}
		catch (IOException ex) {
			// not Linux, or the process ended
		}
		return byKind;
	}

	private static void stop(Process process) {
		process.destroy();
		try {
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				process.waitFor(30, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			process.destroyForcibly();
		}
	}

	/**
	 * Copies the child's output to its log file and notes when the milestones' lines
	 * arrive.
	 */
	private static final class LogWatcher extends Thread {

		private final Process process;

		private final Path log;

		private final long forked;

		private volatile long startingMs = -1;

		private volatile long checkedMs = -1;

		private volatile long startedMs = -1;

		private volatile long assignedMs = -1;

		private volatile Map<String, Long> threadCpu = Map.of();

		LogWatcher(Process process, Path log, long forked) {
			super("startup-log-" + process.pid());
			setDaemon(true);
			this.process = process;
			this.log = log;
			this.forked = forked;
		}

		@Override
		public void run() {
			List<String> lines = new ArrayList<>();
			try (BufferedReader reader = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				for (String line; (line = reader.readLine()) != null;) {
					long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - forked);
					if (startingMs < 0 && line.contains("Starting ") && line.contains(" using Java ")) {
						startingMs = ms;
					}
					if (checkedMs < 0 && line.contains(STARTUP_CHECKS_PASSED)) {
						checkedMs = ms;
					}
					if (startedMs < 0 && line.contains("Started ") && line.contains(" in ")) {
						startedMs = ms;
					}
					if (assignedMs < 0 && line.contains("Adding newly assigned partitions: [")
							&& !line.contains("partitions: []")) {
						assignedMs = ms;
					}
					if (archiveProblem(line)) {
						// a variant meant to use an archive that did not: its figures are
						// not what they say
						System.out.println("  warning, " + log.getFileName() + ": " + line);
					}
					lines.add(String.format("+%6d ms %s", ms, line));
				}
			}
			catch (IOException ex) {
				lines.add("(output ended: " + ex.getMessage() + ")");
			}
			lines.add("CPU ms per thread kind at the first commit:");
			threadCpu.entrySet()
				.stream()
				.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
				.forEach(kind -> lines.add(String.format("%8d %s", kind.getValue(), kind.getKey())));
			try {
				Files.write(log, lines, StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				System.err.println("could not write " + log + ": " + ex.getMessage());
			}
		}

	}

}
