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
package io.sawmill.doctor.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kernel settings of this host (or this pod's network namespace) under
 * {@code <root>/proc} and {@code <root>/sys}: the ephemeral port range and the sockets in
 * TIME_WAIT, {@code somaxconn}, transparent huge pages.
 */
final class KernelChecks {

	static final String PORTS = "net.ephemeral-ports";
	static final String SOMAXCONN = "net.somaxconn";
	static final String THP = "kernel.transparent-hugepage";

	/** Share of the ephemeral range in TIME_WAIT from which the finding is WARN. */
	static final double WARN_TIME_WAIT = 0.20;

	/** Share of the ephemeral range in TIME_WAIT from which the finding is FAIL. */
	static final double FAIL_TIME_WAIT = 0.50;

	/**
	 * Redis's default {@code tcp-backlog} is 511; the kernel caps it at
	 * {@code somaxconn}.
	 */
	static final int REDIS_TCP_BACKLOG = 511;

	/** The state column of {@code /proc/net/tcp}: {@code 06} is TIME_WAIT. */
	private static final String TIME_WAIT = "06";

	private static final Pattern SELECTED = Pattern.compile("\\[(\\w+)]");

	private KernelChecks() {
	}

	static List<Finding> check(Path root) {
		return List.of(ports(root), somaxconn(root), transparentHugePages(root));
	}

	static Finding ports(Path root) {
		Path rangeFile = root.resolve("proc/sys/net/ipv4/ip_local_port_range");
		String why = "every connection to Redis or Kafka takes a local port from this range, and a closed one holds it "
				+ "for a minute in TIME_WAIT: reconnect storms exhaust it, and new connections then fail with "
				+ "'Cannot assign requested address'";
		try {
			String[] range = HostFile.read(rangeFile).trim().split("\\s+");
			int low = Integer.parseInt(range[0]);
			int high = Integer.parseInt(range[1]);
			int size = high - low + 1;
			long timeWait = timeWait(root.resolve("proc/net/tcp")) + timeWait(root.resolve("proc/net/tcp6"));
			double ratio = (double) timeWait / size;
			String measured = String.format(Locale.ROOT,
					"range %d-%d (%d ports), %d sockets in TIME_WAIT (%.1f%% of the range)", low, high, size, timeWait,
					ratio * 100);
			Verdict verdict = ratio >= FAIL_TIME_WAIT ? Verdict.FAIL
					: ratio >= WARN_TIME_WAIT ? Verdict.WARN : Verdict.OK;
			String change = verdict == Verdict.OK ? ""
					: "Find what opens and closes connections (ss -tan state time-wait); widen the range with the pod "
							+ "sysctl net.ipv4.ip_local_port_range (e.g. '1024 65535').";
			return new Finding(PORTS, verdict, measured, why, change);
		}
		catch (IOException | RuntimeException ex) {
			return Finding.unknown(PORTS, "not measured", "cannot read " + rangeFile + ": " + ex.getMessage(), "");
		}
	}

	private static long timeWait(Path table) throws IOException {
		try (var lines = Files.lines(table)) {
			return lines.skip(1)
				.map(line -> line.trim().split("\\s+"))
				.filter(cols -> cols.length > 3)
				.filter(cols -> TIME_WAIT.equals(cols[3]))
				.count();
		}
		catch (NoSuchFileException ex) {
			return 0; // no IPv6
		}
	}

	static Finding somaxconn(Path root) {
		Path file = root.resolve("proc/sys/net/core/somaxconn");
		String why = "caps the accept backlog of every listening socket in this network namespace; Redis's "
				+ "tcp-backlog (511) is cut to it, and a Redis (Cluster) pod on a node set up like this one drops "
				+ "connections under a reconnect burst. Sawmill itself only listens for HTTP";
		try {
			int value = Integer.parseInt(HostFile.read(file).trim());
			String measured = "net.core.somaxconn " + value;
			if (value < REDIS_TCP_BACKLOG) {
				return new Finding(SOMAXCONN, Verdict.WARN, measured, why,
						"Where Redis runs, set the sysctl net.core.somaxconn to at least 1024 (pod securityContext.sysctls "
								+ "or the node's sysctl.conf).");
			}
			return Finding.ok(SOMAXCONN, measured, why);
		}
		catch (IOException | RuntimeException ex) {
			return Finding.unknown(SOMAXCONN, "not measured", "cannot read " + file + ": " + ex.getMessage(), "");
		}
	}

	static Finding transparentHugePages(Path root) {
		Path file = root.resolve("sys/kernel/mm/transparent_hugepage/enabled");
		String why = "matters where Redis runs (this host, or nodes set up like it), not to Sawmill: with 'always' "
				+ "Redis's fork for RDB/AOF rewrites copies huge pages, which shows as latency spikes and memory growth";
		try {
			String content = HostFile.read(file).trim();
			Matcher selected = SELECTED.matcher(content);
			if (!selected.find()) {
				return Finding.unknown(THP, "'" + content + "'", "no [selected] mode in " + file, "");
			}
			String mode = selected.group(1);
			String measured = "transparent_hugepage/enabled " + mode + " (" + content + ")";
			if (mode.equals("always")) {
				return new Finding(THP, Verdict.WARN, measured, why,
						"On the hosts that run Redis: echo madvise > /sys/kernel/mm/transparent_hugepage/enabled "
								+ "(or never), e.g. from a privileged DaemonSet or the node image.");
			}
			return Finding.ok(THP, measured, why);
		}
		catch (IOException ex) {
			return Finding.unknown(THP, "not measured", "cannot read " + file + ": " + ex.getMessage(), "");
		}
	}

}
