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
package io.sawmill.bench.e2e.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

class ConsumerCpuTests {

	@Test
	void shouldAddUserAndSystemTicksOfProcStatEvenWhenTheCommandNameHoldsSpacesAndParentheses() {
		// pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
		// cmajflt utime stime …
		String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 1000 0 0 0 1234 56 0 0 20 0 40 0 100 0\n";

		assertThat(ConsumerCpu.nanosFromStat(stat)).isEqualTo((1234 + 56) * 10_000_000L);
	}

	@Test
	void shouldReadThisJvmsCpuTime() {
		assertThat(ConsumerCpu.processNanos()).isPositive();
		assertThat(ConsumerCpu.nanos()).isPositive();
		// the compiler threads' share of this JVM's CPU time is part of it
		assertThat(ConsumerCpu.compilerNanos()).isNotNegative().isLessThanOrEqualTo(ConsumerCpu.processNanos());
	}

	@Test
	void shouldKeepLeavingOutTheCpuOfAnExcludedThreadAfterItEnded() throws InterruptedException {
		CountDownLatch spun = new CountDownLatch(1);
		CountDownLatch read = new CountDownLatch(1);
		Thread own = new Thread(() -> {
			ThreadMXBean threads = ManagementFactory.getThreadMXBean();
			while (threads.getCurrentThreadCpuTime() < 300_000_000L) {
				Thread.onSpinWait();
			}
			spun.countDown();
			try {
				read.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "bench-status-test");
		own.start();
		spun.await();
		long whileAlive = ConsumerCpu.nanos(); // its 300 ms left out
		read.countDown();
		own.join();

		long afterItEnded = ConsumerCpu.nanos();

		assertThat(afterItEnded - whileAlive).as("no jump when the thread's CPU time leaves /proc/self/task")
			.isLessThan(150_000_000L);
	}

}
