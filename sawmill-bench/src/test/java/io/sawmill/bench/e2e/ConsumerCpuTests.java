package io.sawmill.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

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
}
