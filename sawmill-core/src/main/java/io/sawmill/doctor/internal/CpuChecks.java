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
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import io.sawmill.metrics.internal.CgroupCpuStat;

/**
 * CPU quota and CFS throttling of this container, from the cgroup under
 * {@code <root>/sys/fs/cgroup}: v2's {@code cpu.max} and {@code cpu.stat}, or v1's
 * {@code cpu.cfs_quota_us}, {@code cpu.cfs_period_us} and {@code cpu.stat} in the cpu
 * controller's directory. The counters are the cgroup's since it was created, so the
 * ratio is an average over the container's life.
 */
final class CpuChecks {

	static final String QUOTA = "cpu.quota";
	static final String THROTTLING = "cpu.throttling";

	/** Share of enforcement periods throttled from which the finding is WARN. */
	static final double WARN_THROTTLED = 0.01;

	/** Share of enforcement periods throttled from which the finding is FAIL. */
	static final double FAIL_THROTTLED = 0.10;

	private static final String THROTTLE_WHY = "once the container has used its quota it is stopped for the rest of "
			+ "the period (100 ms by default): a batch in flight stalls for tens of milliseconds while average CPU "
			+ "looks idle";

	private CpuChecks() {
	}

	static List<Finding> check(Path root) {
		Optional<CgroupCpuStat.Source> source = CgroupCpuStat.locate(root.resolve("sys/fs/cgroup"));
		if (source.isEmpty()) {
			String why = "no cpu.stat with CFS counters under " + root.resolve("sys/fs/cgroup")
					+ " (not Linux, or the cpu controller is not enabled for this cgroup)";
			return List.of(Finding.unknown(QUOTA, "not measured", why, ""),
					Finding.unknown(THROTTLING, "not measured", why, ""));
		}
		return List.of(quota(source.get()), throttling(source.get()));
	}

	private static Finding quota(CgroupCpuStat.Source source) {
		Path dir = Objects.requireNonNull(source.file().getParent(), "a cgroup file lies in its cgroup's directory");
		String quota;
		String period;
		String file;
		try {
			if (source.version() == CgroupCpuStat.Version.V2) {
				file = "cpu.max";
				String[] max = HostFile.read(dir.resolve(file)).trim().split("\\s+");
				quota = max[0];
				period = max.length > 1 ? max[1] : "100000";
			}
			else {
				file = "cpu.cfs_quota_us";
				quota = HostFile.read(dir.resolve(file)).trim();
				period = HostFile.read(dir.resolve("cpu.cfs_period_us")).trim();
			}
		}
		catch (IOException ex) {
			return Finding.unknown(QUOTA, "not measured", "cannot read the quota next to " + source.file() + ": " + ex,
					"");
		}
		String raw = "cgroup " + source.version().tag() + " " + file + " " + quota + " / " + period;
		if (quota.equals("max") || quota.equals("-1")) {
			return Finding.ok(QUOTA, "no CPU limit (" + raw + ")", "without a limit the container is never throttled");
		}
		double cpus = Double.parseDouble(quota) / Double.parseDouble(period);
		String measured = String.format(Locale.ROOT, "%.2f CPUs (%s)", cpus, raw);
		if (cpus < 1) {
			return new Finding(QUOTA, Verdict.WARN, measured,
					"less than one CPU for the listener threads, Lettuce's event loop and the garbage collector: "
							+ THROTTLE_WHY,
					"Raise resources.limits.cpu to at least 1, or remove the CPU limit and keep the request.");
		}
		return Finding.ok(QUOTA, measured, "a limit throttles the container when it is used up; see cpu.throttling");
	}

	private static Finding throttling(CgroupCpuStat.Source source) {
		Optional<CgroupCpuStat> read = source.read();
		if (read.isEmpty()) {
			return Finding.unknown(THROTTLING, "not measured", "cannot read " + source.file(), "");
		}
		CgroupCpuStat stat = read.get();
		if (stat.periods() == 0) {
			return Finding.ok(THROTTLING, "no enforcement period yet (" + source.file().getFileName() + ", cgroup "
					+ source.version().tag() + ")", "periods are counted only while a CPU limit is enforced");
		}
		double ratio = (double) stat.throttledPeriods() / stat.periods();
		String measured = String.format(Locale.ROOT, "%d of %d periods throttled (%.1f%%), %.1f s in total (cgroup %s)",
				stat.throttledPeriods(), stat.periods(), ratio * 100, stat.throttledNanos() / 1e9,
				source.version().tag());
		Verdict verdict = ratio >= FAIL_THROTTLED ? Verdict.FAIL : ratio >= WARN_THROTTLED ? Verdict.WARN : Verdict.OK;
		String change = verdict == Verdict.OK ? ""
				: "Raise resources.limits.cpu or remove the CPU limit (keep the request), or lower sawmill.concurrency; "
						+ "watch rate(sawmill_cpu_throttled_periods_total) / rate(sawmill_cpu_periods_total).";
		return new Finding(THROTTLING, verdict, measured, THROTTLE_WHY, change);
	}

}
