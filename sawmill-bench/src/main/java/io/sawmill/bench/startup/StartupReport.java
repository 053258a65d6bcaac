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

/** The min / median / max table of {@link StartupTime}. */
final class StartupReport {

	private StartupReport() {
	}

	static String table(Map<String, List<ServiceLaunch.Timing>> timings, StartupOptions options) {
		StringBuilder table = new StringBuilder();
		table.append("java: ").append(options.java()).append('\n');
		table.append(
				"| variant | first commit, median (min–max) | × first variant | Spring started | partitions assigned "
						+ "| CPU to first commit | all " + String.format(Locale.ROOT, "%,d", options.records())
						+ " committed |\n");
		table.append("|---|---|---|---|---|---|---|\n");
		long base = median(timings.values().iterator().next(), ServiceLaunch.Timing::firstCommitMs);
		timings.forEach((variant, runs) -> table
			.append(String.format(Locale.ROOT, "| %s | %,d ms (%,d–%,d) | %.2f | %,d ms | %,d ms | %,d ms | %,d ms |%n",
					variant, median(runs, ServiceLaunch.Timing::firstCommitMs), min(runs), max(runs),
					(double) median(runs, ServiceLaunch.Timing::firstCommitMs) / base,
					median(runs, ServiceLaunch.Timing::startedMs), median(runs, ServiceLaunch.Timing::assignedMs),
					median(runs, ServiceLaunch.Timing::cpuMs), median(runs, ServiceLaunch.Timing::allCommittedMs))));
		options.variants()
			.forEach(variant -> table.append(variant.name()).append(": ").append(variant.describe()).append('\n'));
		return table.toString();
	}

	static long median(List<ServiceLaunch.Timing> runs, ToLongFunction<ServiceLaunch.Timing> value) {
		long[] sorted = runs.stream().mapToLong(value).sorted().toArray();
		int middle = sorted.length / 2;
		return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	private static long min(List<ServiceLaunch.Timing> runs) {
		return runs.stream().mapToLong(ServiceLaunch.Timing::firstCommitMs).min().orElse(-1);
	}

	private static long max(List<ServiceLaunch.Timing> runs) {
		return runs.stream().mapToLong(ServiceLaunch.Timing::firstCommitMs).max().orElse(-1);
	}

}
