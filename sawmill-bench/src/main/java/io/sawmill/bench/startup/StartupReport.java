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

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;

/** The min / median / max table of {@link StartupTime}. */
final class StartupReport {

	private StartupReport() {
	}

	static String table(Map<String, List<ServiceLaunch.Timing>> timings, StartupOptions options) {
		StringBuilder table = new StringBuilder();
		table.append("java: ").append(options.java()).append('\n');
		table.append("| variant | first commit, median (min–max) | × first variant, run by run | CPU to first commit, "
				+ "median (min–max) | CPU × first variant, run by run | Spring starting | start-up checks passed | Spring started "
				+ "| partitions assigned | all " + String.format(Locale.ROOT, "%,d", options.records())
				+ " committed |\n");
		table.append("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
		List<ServiceLaunch.Timing> first = timings.values().iterator().next();
		timings.forEach((variant, runs) -> table.append(String.format(Locale.ROOT,
				"| %s | %s | %s | %s | %s | %,d ms | %,d ms | %,d ms | %,d ms | %,d ms |%n", variant,
				spread(runs, ServiceLaunch.Timing::firstCommitMs),
				ratios(runs, first, ServiceLaunch.Timing::firstCommitMs), spread(runs, ServiceLaunch.Timing::cpuMs),
				ratios(runs, first, ServiceLaunch.Timing::cpuMs), median(runs, ServiceLaunch.Timing::startingMs),
				median(runs, ServiceLaunch.Timing::checkedMs), median(runs, ServiceLaunch.Timing::startedMs),
				median(runs, ServiceLaunch.Timing::assignedMs), median(runs, ServiceLaunch.Timing::allCommittedMs))));
		options.variants()
			.forEach(variant -> table.append(variant.name()).append(": ").append(variant.describe()).append('\n'));
		return table.toString();
	}

	/**
	 * The median and the range of each run's value divided by the same run's value of
	 * {@code first} (the runs alternate, so a pair shares the machine's state), e.g.
	 * {@code 0.48 (0.45–0.52)}.
	 */
	private static String ratios(List<ServiceLaunch.Timing> runs, List<ServiceLaunch.Timing> first,
			ToLongFunction<ServiceLaunch.Timing> value) {
		double[] sorted = IntStream.range(0, Math.min(runs.size(), first.size()))
			.mapToDouble(run -> (double) value.applyAsLong(runs.get(run)) / value.applyAsLong(first.get(run)))
			.sorted()
			.toArray();
		int middle = sorted.length / 2;
		double median = sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
		return String.format(Locale.ROOT, "%.2f (%.2f–%.2f)", median, sorted[0], sorted[sorted.length - 1]);
	}

	/** The median and the range, e.g. {@code 2,000 ms (1,900–2,100)}. */
	private static String spread(List<ServiceLaunch.Timing> runs, ToLongFunction<ServiceLaunch.Timing> value) {
		long[] sorted = runs.stream().mapToLong(value).sorted().toArray();
		return String.format(Locale.ROOT, "%,d ms (%,d–%,d)", median(runs, value), sorted[0],
				sorted[sorted.length - 1]);
	}

	static long median(List<ServiceLaunch.Timing> runs, ToLongFunction<ServiceLaunch.Timing> value) {
		long[] sorted = runs.stream().mapToLong(value).sorted().toArray();
		int middle = sorted.length / 2;
		return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

}
