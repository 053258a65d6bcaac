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
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import io.sawmill.bench.e2e.measure.ThreadCpu.Kind;

class ThreadCpuTests {

	@Test
	void shouldTellTheKindOfAThreadByItsLinuxName() {
		// sawmillListenerContainer-0-C-1, cut to 15
		assertThat(Kind.of("sawmillListener")).isEqualTo(Kind.LISTENER);
		assertThat(Kind.of("template-loop")).isEqualTo(Kind.LISTENER);
		assertThat(Kind.of("lettuce-nioEven")).isEqualTo(Kind.REDIS_IO);
		assertThat(Kind.of("lettuce-epollEv")).isEqualTo(Kind.REDIS_IO);
		assertThat(Kind.of("GC Thread#1")).isEqualTo(Kind.GC);
		assertThat(Kind.of("G1 Conc#0")).isEqualTo(Kind.GC);
		assertThat(Kind.of("G1 Refine#0")).isEqualTo(Kind.GC);
		assertThat(Kind.of("kafka-coordinat")).isEqualTo(Kind.REST);
		assertThat(Kind.of("VM Thread")).isEqualTo(Kind.REST);
	}

	@Test
	void shouldCountTheCpuAListenerThreadUsedBetweenTwoReadings() throws InterruptedException {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch before = new CountDownLatch(1);
		CountDownLatch spun = new CountDownLatch(1);
		CountDownLatch after = new CountDownLatch(1);
		Thread listener = new Thread(() -> {
			try {
				started.countDown();
				before.await();
				ThreadMXBean threads = ManagementFactory.getThreadMXBean();
				long from = threads.getCurrentThreadCpuTime();
				while (threads.getCurrentThreadCpuTime() - from < 300_000_000L) {
					Thread.onSpinWait();
				}
				spun.countDown();
				after.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "sawmillListenerContainer-test");
		listener.start();
		started.await();
		ThreadCpu earlier = ThreadCpu.now();
		before.countDown();
		spun.await();

		Map<Kind, Long> used = ThreadCpu.now().since(earlier);
		after.countDown();
		listener.join();

		// /proc counts in ticks of 10 ms
		assertThat(used.get(Kind.LISTENER)).isBetween(280_000_000L, 400_000_000L);
	}

	@Test
	void shouldSplitTheCpuPerRecordAndLeaveTheRestToTheUnlistedThreads() {
		Map<Kind, Long> used = Map.of(Kind.LISTENER, 1_300_000_000L, Kind.REDIS_IO, 700_000_000L, Kind.GC, 300_000_000L,
				Kind.REST, 999L);

		assertThat(ThreadCpu.split(used, 1_000_000, 2_500))
			.isEqualTo("listener 1.30, Redis I/O 0.70, GC 0.30, rest 0.20 µs");
		assertThat(ThreadCpu.split(Map.of(), 1_000_000, 2_500)).isEmpty();
		assertThat(ThreadCpu.split(used, 1_000_000, Double.NaN)).isEmpty();
	}

}
