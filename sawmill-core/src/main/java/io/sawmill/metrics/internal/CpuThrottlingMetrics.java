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

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import org.jspecify.annotations.Nullable;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * CFS quota throttling of this container as counters, read from the cgroup's
 * {@code cpu.stat} at every scrape: {@code sawmill.cpu.periods},
 * {@code sawmill.cpu.throttled.periods} and {@code sawmill.cpu.throttled} (seconds).
 * Registers nothing when no such file exists (not Linux, no CPU limit accounting), so the
 * series are absent rather than zero.
 * <p>
 * Why: a CPU limit throttles the whole JVM for the rest of a 100 ms period once the quota
 * is used, which shows up as batch stalls of tens of milliseconds while average CPU looks
 * idle (docs/kubernetes.md).
 */
public final class CpuThrottlingMetrics implements MeterBinder {

	private final Path root;

	/** Reads {@link CgroupCpuStat#DEFAULT_ROOT}. */
	public CpuThrottlingMetrics() {
		this(CgroupCpuStat.DEFAULT_ROOT);
	}

	/**
	 * Reads the cgroup file system mounted at {@code root} (tests pass a directory of
	 * sample files).
	 */
	public CpuThrottlingMetrics(Path root) {
		this.root = root;
	}

	/**
	 * Idempotent: Sawmill binds it itself (so it works without Actuator) and Actuator
	 * binds every {@link MeterBinder} bean again.
	 */
	@Override
	public void bindTo(MeterRegistry registry) {
		if (registry.find("sawmill.cpu.periods").functionCounter() != null) {
			return;
		}
		Optional<CgroupCpuStat.Source> located = CgroupCpuStat.locate(root);
		if (located.isEmpty()) {
			return;
		}
		CgroupCpuStat.Source source = located.get();
		String cgroup = source.version().tag();
		counter(registry, source, "sawmill.cpu.periods", "CFS enforcement periods elapsed", null, cgroup,
				stat -> stat.periods());
		counter(registry, source, "sawmill.cpu.throttled.periods", "CFS periods in which the container was throttled",
				null, cgroup, stat -> stat.throttledPeriods());
		counter(registry, source, "sawmill.cpu.throttled", "Time the container was throttled by its CPU limit",
				"seconds", cgroup, stat -> stat.throttledNanos() / 1e9);
	}

	private static void counter(MeterRegistry registry, CgroupCpuStat.Source source, String name, String description,
			@Nullable String unit, String cgroup, ToDoubleFunction<CgroupCpuStat> value) {
		FunctionCounter.builder(name, source, s -> s.read().map(value::applyAsDouble).orElse(Double.NaN))
			.description(description)
			.baseUnit(unit)
			.tag("cgroup", cgroup)
			.register(registry);
	}

}
