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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * One reading of the CFS bandwidth counters of the container's cgroup: how many
 * enforcement periods have elapsed, in how many of them the cgroup was throttled, and for
 * how long in total.
 * <p>
 * cgroup v2 keeps them in {@code <root>/cpu.stat} as {@code nr_periods},
 * {@code nr_throttled} and {@code throttled_usec} (present only when the cpu controller
 * is enabled); cgroup v1 in {@code <root>/cpu/cpu.stat} (or {@code cpu,cpuacct}) as
 * {@code nr_periods}, {@code nr_throttled} and {@code throttled_time} in nanoseconds. The
 * counters only grow while the cgroup lives.
 *
 * @param version which cgroup layout the reading came from
 * @param periods enforcement periods elapsed ({@code nr_periods})
 * @param throttledPeriods periods in which the cgroup used up its quota and was throttled
 * @param throttledNanos total time throttled, in nanoseconds
 */
public record CgroupCpuStat(Version version, long periods, long throttledPeriods, long throttledNanos) {

	/**
	 * The cgroup hierarchy the reading came from; the {@code cgroup} tag of the
	 * throttling meters.
	 */
	public enum Version {

		/** Unified hierarchy; {@code throttled_usec} in microseconds. */
		V2,
		/** Legacy per-controller hierarchy; {@code throttled_time} in nanoseconds. */
		V1;

		public String tag() {
			return this == V2 ? "v2" : "v1";
		}

	}

	/** Where the cgroup file system is mounted inside a container. */
	public static final Path DEFAULT_ROOT = Path.of("/sys/fs/cgroup");

	private static final List<String> V1_CPU_DIRECTORIES = List.of("cpu", "cpu,cpuacct", "cpuacct,cpu");

	/**
	 * The file that holds the throttling counters under {@code root}, if there is one:
	 * v2's {@code cpu.stat} when it has {@code nr_periods}, otherwise v1's in the cpu
	 * controller.
	 */
	public static Optional<Source> locate(Path root) {
		Path v2 = root.resolve("cpu.stat");
		if (Files.isReadable(v2) && parse(read(v2), Version.V2).isPresent()) {
			return Optional.of(new Source(v2, Version.V2));
		}
		for (String directory : V1_CPU_DIRECTORIES) {
			Path v1 = root.resolve(directory).resolve("cpu.stat");
			if (Files.isReadable(v1) && parse(read(v1), Version.V1).isPresent()) {
				return Optional.of(new Source(v1, Version.V1));
			}
		}
		return Optional.empty();
	}

	/**
	 * Parses the content of a {@code cpu.stat} file; empty when it lacks one of the three
	 * counters (e.g. v2 without the cpu controller, which reports usage only).
	 */
	public static Optional<CgroupCpuStat> parse(String content, Version version) {
		Map<String, Long> values = new HashMap<>();
		for (String line : content.split("\n")) {
			String[] parts = line.trim().split("\\s+");
			if (parts.length == 2) {
				try {
					values.put(parts[0], Long.parseLong(parts[1]));
				}
				catch (NumberFormatException ex) {
					// a field we do not read; ignore it
				}
			}
		}
		Long periods = values.get("nr_periods");
		Long throttled = values.get("nr_throttled");
		Long time = version == Version.V2 ? multiply(values.get("throttled_usec"), 1_000)
				: values.get("throttled_time");
		if (periods == null || throttled == null || time == null) {
			return Optional.empty();
		}
		return Optional.of(new CgroupCpuStat(version, periods, throttled, time));
	}

	private static @Nullable Long multiply(@Nullable Long value, long factor) {
		return value == null ? null : value * factor;
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * A {@code cpu.stat} file known to hold the counters, read again on every
	 * {@link #read()}.
	 */
	public record Source(Path file, Version version) {

		/**
		 * The current counters; empty if the file has gone or cannot be read any more.
		 */
		public Optional<CgroupCpuStat> read() {
			try {
				return parse(Files.readString(file), version);
			}
			catch (IOException | UncheckedIOException ex) {
				return Optional.empty();
			}
		}
	}
}
