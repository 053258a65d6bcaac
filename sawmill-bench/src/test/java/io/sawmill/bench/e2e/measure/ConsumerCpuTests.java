package io.sawmill.bench.e2e.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

class ConsumerCpuTests {

	@Test
	void shouldAddUserAndSystemTicksOfProcStatEvenWhenTheCommandNameHoldsSpacesAndParentheses() {
		// pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime …
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
