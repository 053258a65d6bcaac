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

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

class CgroupCpuStatTests {

	static Path sample(String name) throws URISyntaxException {
		return Path.of(CgroupCpuStatTests.class.getResource(name).toURI());
	}

	@Test
	void shouldReadCgroupV2CountersAndConvertMicrosecondsToNanoseconds() throws Exception {
		CgroupCpuStat.Source source = CgroupCpuStat.locate(sample("cgroup-v2")).orElseThrow();

		assertThat(source.version()).isEqualTo(CgroupCpuStat.Version.V2);
		assertThat(source.read()).contains(new CgroupCpuStat(CgroupCpuStat.Version.V2, 20816, 3117, 41_235_871_000L));
	}

	@Test
	void shouldReadCgroupV1CountersInNanosecondsFromTheCpuController() throws Exception {
		CgroupCpuStat.Source source = CgroupCpuStat.locate(sample("cgroup-v1")).orElseThrow();

		assertThat(source.file().toString()).endsWith("cpu,cpuacct/cpu.stat");
		assertThat(source.read()).contains(new CgroupCpuStat(CgroupCpuStat.Version.V1, 4512, 1203, 86_400_123_456L));
	}

	@Test
	void shouldFindNothingWhenTheCpuControllerIsNotEnabled() throws Exception {
		assertThat(CgroupCpuStat.locate(sample("cgroup-v2-no-cpu-controller"))).isEmpty();
	}

	@Test
	void shouldFindNothingWithoutACgroupFileSystem(@TempDir Path empty) {
		assertThat(CgroupCpuStat.locate(empty.resolve("missing"))).isEmpty();
		assertThat(CgroupCpuStat.locate(empty)).isEmpty();
	}

	@Test
	void shouldIgnoreFieldsItDoesNotKnowAndMalformedLines() {
		String content = "nr_periods 10\nnr_throttled 2\nthrottled_usec 5\nsomething odd here\nnr_bursts x\n";

		assertThat(CgroupCpuStat.parse(content, CgroupCpuStat.Version.V2))
			.contains(new CgroupCpuStat(CgroupCpuStat.Version.V2, 10, 2, 5_000));
		assertThat(CgroupCpuStat.parse("nr_periods 10\nnr_throttled 2\n", CgroupCpuStat.Version.V1)).isEmpty();
	}

	@Test
	void shouldPublishThrottlingCountersThatFollowTheFile(@TempDir Path root) throws Exception {
		Files.writeString(root.resolve("cpu.stat"), "nr_periods 100\nnr_throttled 7\nthrottled_usec 2500000\n");
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new CpuThrottlingMetrics(root).bindTo(registry);

		assertThat(registry.get("sawmill.cpu.periods").tag("cgroup", "v2").functionCounter().count()).isEqualTo(100);
		assertThat(registry.get("sawmill.cpu.throttled.periods").functionCounter().count()).isEqualTo(7);
		assertThat(registry.get("sawmill.cpu.throttled").functionCounter().count()).isEqualTo(2.5);

		Files.writeString(root.resolve("cpu.stat"), "nr_periods 200\nnr_throttled 9\nthrottled_usec 3000000\n");
		assertThat(registry.get("sawmill.cpu.throttled.periods").functionCounter().count()).isEqualTo(9);
		assertThat(registry.get("sawmill.cpu.throttled").functionCounter().count()).isEqualTo(3.0);
	}

	@Test
	void shouldPublishNoThrottlingMetersWhenThereIsNoCpuStat(@TempDir Path root) {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new CpuThrottlingMetrics(root).bindTo(registry);

		assertThat(registry.find("sawmill.cpu.periods").meters()).isEmpty();
		assertThat(registry.getMeters()).isEmpty();
	}

}
