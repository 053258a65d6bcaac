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
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import io.sawmill.metrics.internal.CgroupCpuStat;

/**
 * The CPU checks on a real cgroup, not a copy: a child cgroup of this host's cpu
 * controller (v1's {@code /sys/fs/cgroup/cpu}, or v2's unified hierarchy) limited to a
 * fifth of a CPU, with a busy process in it, so the kernel itself throttles it and counts
 * the periods. The doctor reads that cgroup through a host root whose
 * {@code sys/fs/cgroup} points at it. Needs the right to create a cgroup (root on a
 * writable cgroupfs, as on CI); skipped elsewhere.
 */
@EnabledOnOs(OS.LINUX)
class CpuChecksOnALiveCgroupTests {

	private static final Path CGROUP_FS = Path.of("/sys/fs/cgroup");

	@Test
	void shouldWarnAboutAFifthOfACpuAndFailTheThrottlingTheKernelCountedForABusyProcess(@TempDir Path root)
			throws Exception {
		Optional<LiveCgroup> created = LiveCgroup.create("sawmill-doctor-test-" + ProcessHandle.current().pid());
		assumeTrue(created.isPresent(),
				"cannot create a cgroup with a CPU limit here (needs root and a writable cgroupfs)");
		try (LiveCgroup cgroup = created.get()) {
			cgroup.limitToOneFifthOfACpu();
			cgroup.runBusyProcess();
			await("the kernel throttles the busy process").atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> cgroup.stat().map(CgroupCpuStat::throttledPeriods).orElse(0L) >= 5);
			cgroup.linkAsCgroupFs(root);

			List<Finding> findings = CpuChecks.check(root);

			Finding quota = findings.get(0);
			assertThat(quota.check()).isEqualTo(CpuChecks.QUOTA);
			assertThat(quota.verdict()).isEqualTo(Verdict.WARN);
			assertThat(quota.measured()).startsWith("0.20 CPUs (cgroup " + cgroup.version().tag() + " ");
			Finding throttling = findings.get(1);
			assertThat(throttling.check()).isEqualTo(CpuChecks.THROTTLING);
			assertThat(throttling.verdict()).as(throttling.measured()).isEqualTo(Verdict.FAIL);
			assertThat(throttling.measured()).matches("\\d+ of \\d+ periods throttled \\(\\d+\\.\\d%\\), .*");
			assertThat(throttling.change()).contains("resources.limits.cpu");
		}
	}

	/** A child cgroup of this host's cpu controller, removed again by {@link #close}. */
	private static final class LiveCgroup implements AutoCloseable {

		private final Path dir;

		private final CgroupCpuStat.Version version;

		private Process busy;

		private LiveCgroup(Path dir, CgroupCpuStat.Version version) {
			this.dir = dir;
			this.version = version;
		}

		static Optional<LiveCgroup> create(String name) {
			Path v1 = CGROUP_FS.resolve("cpu");
			boolean v2 = Files.isRegularFile(CGROUP_FS.resolve("cgroup.subtree_control")) && controls(CGROUP_FS);
			Path parent = v2 ? CGROUP_FS : v1;
			if (!v2 && !Files.isRegularFile(v1.resolve("cpu.cfs_quota_us"))) {
				return Optional.empty();
			}
			try {
				Path dir = Files.createDirectory(parent.resolve(name));
				return Optional.of(new LiveCgroup(dir, v2 ? CgroupCpuStat.Version.V2 : CgroupCpuStat.Version.V1));
			}
			catch (IOException | SecurityException ex) {
				return Optional.empty();
			}
		}

		/** Whether v2's root hands the cpu controller to its children. */
		private static boolean controls(Path root) {
			try {
				return Files.readString(root.resolve("cgroup.subtree_control")).contains("cpu");
			}
			catch (IOException ex) {
				return false;
			}
		}

		CgroupCpuStat.Version version() {
			return version;
		}

		void limitToOneFifthOfACpu() throws IOException {
			if (version == CgroupCpuStat.Version.V2) {
				Files.writeString(dir.resolve("cpu.max"), "20000 100000");
			}
			else {
				Files.writeString(dir.resolve("cpu.cfs_period_us"), "100000");
				Files.writeString(dir.resolve("cpu.cfs_quota_us"), "20000");
			}
		}

		void runBusyProcess() throws IOException {
			busy = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
			Files.writeString(dir.resolve("cgroup.procs"), Long.toString(busy.pid()));
		}

		Optional<CgroupCpuStat> stat() throws IOException {
			return CgroupCpuStat.parse(Files.readString(dir.resolve("cpu.stat")), version);
		}

		/**
		 * Makes {@code root}'s {@code sys/fs/cgroup} this cgroup, as the doctor finds it
		 * inside a container.
		 */
		void linkAsCgroupFs(Path root) throws IOException {
			Path cgroupFs = Files.createDirectories(root.resolve("sys/fs"));
			if (version == CgroupCpuStat.Version.V2) {
				Files.createSymbolicLink(cgroupFs.resolve("cgroup"), dir);
			}
			else {
				Files.createSymbolicLink(Files.createDirectories(cgroupFs.resolve("cgroup")).resolve("cpu"), dir);
			}
		}

		@Override
		public void close() {
			if (busy != null) {
				busy.destroyForcibly().onExit().join();
			}
			// a cgroup is removable once its last process has exited
			await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
				try {
					Files.delete(dir);
					return true;
				}
				catch (IOException busyStill) {
					return false;
				}
			});
		}

	}

}
