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

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host checks on files copied from a real host, and hand-made variants of them (see
 * the fixtures' README).
 */
class HostChecksTests {

	static Path fixture(String name) throws URISyntaxException {
		return Path.of(HostChecksTests.class.getResource(name).toURI());
	}

	private static Finding find(List<Finding> findings, String check) {
		return findings.stream().filter(f -> f.check().equals(check)).findFirst().orElseThrow();
	}

	private static List<Finding> examine(Path root) {
		return Doctor.builder(DoctorConfig.custom().hostRoot(root).build()).build().examine().findings();
	}

	@Test
	void shouldFindNothingWrongOnTheHostTheFixtureWasCopiedFrom() throws Exception {
		List<Finding> findings = examine(fixture("this-host"));

		assertThat(findings).extracting(Finding::check)
			.containsExactly(CpuChecks.QUOTA, CpuChecks.THROTTLING, KernelChecks.PORTS, KernelChecks.SOMAXCONN,
					KernelChecks.THP);
		assertThat(findings).allSatisfy(f -> assertThat(f.verdict()).isEqualTo(Verdict.OK));
		assertThat(find(findings, CpuChecks.QUOTA).measured())
			.isEqualTo("no CPU limit (cgroup v1 cpu.cfs_quota_us -1 / 100000)");
		assertThat(find(findings, CpuChecks.THROTTLING).measured()).startsWith("no enforcement period yet");
		assertThat(find(findings, KernelChecks.PORTS).measured())
			.isEqualTo("range 32768-60999 (28232 ports), 220 sockets in TIME_WAIT (0.8% of the range)");
		assertThat(find(findings, KernelChecks.SOMAXCONN).measured()).isEqualTo("net.core.somaxconn 4096");
		assertThat(find(findings, KernelChecks.THP).measured()).startsWith("transparent_hugepage/enabled madvise");
	}

	@Test
	void shouldFailHeavyThrottlingAndWarnAboutHalfACpuANarrowPortRangeALowBacklogAndHugePages() throws Exception {
		List<Finding> findings = examine(fixture("strained-v2"));

		Finding quota = find(findings, CpuChecks.QUOTA);
		assertThat(quota.verdict()).isEqualTo(Verdict.WARN);
		assertThat(quota.measured()).isEqualTo("0.50 CPUs (cgroup v2 cpu.max 50000 / 100000)");
		Finding throttling = find(findings, CpuChecks.THROTTLING);
		assertThat(throttling.verdict()).isEqualTo(Verdict.FAIL);
		assertThat(throttling.measured())
			.isEqualTo("3117 of 20816 periods throttled (15.0%), 41.2 s in total (cgroup v2)");
		assertThat(throttling.change()).contains("resources.limits.cpu");
		Finding ports = find(findings, KernelChecks.PORTS);
		assertThat(ports.verdict()).isEqualTo(Verdict.WARN);
		assertThat(ports.measured())
			.isEqualTo("range 60000-60999 (1000 ports), 220 sockets in TIME_WAIT (22.0% of the range)");
		assertThat(find(findings, KernelChecks.SOMAXCONN).verdict()).isEqualTo(Verdict.WARN);
		Finding thp = find(findings, KernelChecks.THP);
		assertThat(thp.verdict()).isEqualTo(Verdict.WARN);
		assertThat(thp.why()).contains("where Redis runs");
	}

	@Test
	void shouldFailWhenMostOfTheEphemeralRangeIsInTimeWait(@TempDir Path root) throws Exception {
		copy(fixture("this-host").resolve("proc/net"), root.resolve("proc/net"));
		write(root.resolve("proc/sys/net/ipv4/ip_local_port_range"), "60000\t60399\n");

		Finding ports = KernelChecks.ports(root);

		assertThat(ports.verdict()).isEqualTo(Verdict.FAIL);
		assertThat(ports.measured())
			.isEqualTo("range 60000-60399 (400 ports), 220 sockets in TIME_WAIT (55.0% of the range)");
	}

	@Test
	void shouldReadTheQuotaAndCountersOfCgroupV1(@TempDir Path root) throws Exception {
		Path v1 = fixture("/io/sawmill/metrics/internal/cgroup-v1");
		// the metrics fixture has the counters only; the quota files are hand-made next
		// to a copy of it
		copy(v1, root.resolve("sys/fs/cgroup"));
		write(root.resolve("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us"), "200000\n");
		write(root.resolve("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us"), "100000\n");

		List<Finding> findings = CpuChecks.check(root);

		assertThat(find(findings, CpuChecks.QUOTA)).extracting(Finding::verdict, Finding::measured)
			.containsExactly(Verdict.OK, "2.00 CPUs (cgroup v1 cpu.cfs_quota_us 200000 / 100000)");
		assertThat(find(findings, CpuChecks.THROTTLING)).extracting(Finding::verdict, Finding::measured)
			.containsExactly(Verdict.FAIL, "1203 of 4512 periods throttled (26.7%), 86.4 s in total (cgroup v1)");
	}

	@Test
	void shouldWarnAboutOccasionalThrottling(@TempDir Path root) throws Exception {
		write(root.resolve("sys/fs/cgroup/cpu.max"), "max 100000\n");
		write(root.resolve("sys/fs/cgroup/cpu.stat"), "nr_periods 20816\nnr_throttled 300\nthrottled_usec 900000\n");

		List<Finding> findings = CpuChecks.check(root);

		assertThat(find(findings, CpuChecks.QUOTA).verdict()).isEqualTo(Verdict.OK);
		assertThat(find(findings, CpuChecks.THROTTLING)).extracting(Finding::verdict, Finding::measured)
			.containsExactly(Verdict.WARN, "300 of 20816 periods throttled (1.4%), 0.9 s in total (cgroup v2)");
	}

	@Test
	void shouldSayUnknownRatherThanGuessWhereNothingCanBeRead(@TempDir Path empty) {
		List<Finding> findings = examine(empty);

		assertThat(findings).hasSize(5).allSatisfy(f -> assertThat(f.verdict()).isEqualTo(Verdict.UNKNOWN));
		assertThat(DoctorReport.of(findings).exitCode()).isEqualTo(DoctorReport.EXIT_OK);
	}

	@Test
	void shouldReadTheLiveSysctlFilesOfThisHostToTheirEnd() throws Exception {
		Path somaxconn = Path.of("/proc/sys/net/core/somaxconn");
		Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
		assumeTrue(Files.isReadable(somaxconn) && Files.isReadable(range), "not Linux");

		Finding backlog = KernelChecks.somaxconn(Path.of("/"));
		Finding ports = KernelChecks.ports(Path.of("/"));

		// procfs reports size 0: a reader that trusts the size gets "4" for 4096
		assertThat(backlog.measured()).isEqualTo("net.core.somaxconn " + Files.readAllLines(somaxconn).get(0).trim());
		assertThat(ports.measured())
			.startsWith("range " + Files.readAllLines(range).get(0).trim().replaceAll("\\s+", "-") + " (");
	}

	private static void write(Path file, String content) throws Exception {
		Files.createDirectories(file.getParent());
		Files.writeString(file, content);
	}

	private static void copy(Path from, Path to) throws Exception {
		try (var files = Files.walk(from)) {
			for (Path source : files.toList()) {
				Path target = to.resolve(from.relativize(source).toString());
				if (Files.isDirectory(source)) {
					Files.createDirectories(target);
				}
				else {
					Files.createDirectories(target.getParent());
					Files.copy(source, target);
				}
			}
		}
	}

}
