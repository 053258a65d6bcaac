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
package io.sawmill.listener.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.testkit.MutableClock;

class ListenerProgressTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

	private final ListenerProgress progress = ListenerProgress.of(ListenerConfig.custom()
		.topics(List.of("t"))
		.redeliveryBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
		.stallTimeout(Duration.ofSeconds(30))
		.build(), new SawmillMetrics(registry, "g1"), clock);

	@Test
	void shouldDoubleTheBackoffWithEachConsecutiveFailureUpToTheMaximum() {
		assertThat(List.of(progress.failed("a"), progress.failed("b"), progress.failed("c"), progress.failed("d"),
				progress.failed("e"), progress.failed("f")))
			.containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400),
					Duration.ofMillis(800), Duration.ofSeconds(1), Duration.ofSeconds(1));
	}

	@Test
	void shouldStartFromTheInitialBackoffAgainOnceABatchIsCommitted() {
		progress.failed("a");
		progress.failed("b");

		progress.committed();

		assertThat(progress.consecutiveFailures()).isZero();
		assertThat(progress.failed("c")).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void shouldNeverOverflowTheBackoffHoweverManyFailures() {
		assertThat(progress.backoff(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void shouldReportAStallOnceNoBatchWasCommittedForTheStallTimeoutSinceTheFirstFailure() {
		progress.failed("redis down");
		clock.advance(Duration.ofSeconds(29));
		progress.failed(new IllegalStateException("still down"));

		assertThat(progress.stall()).isEmpty();
		assertThat(gauge("sawmill.listener.stalled")).isZero();
		assertThat(gauge("sawmill.listener.consecutive.failures")).isEqualTo(2);

		clock.advance(Duration.ofSeconds(1));

		assertThat(progress.stall())
			.hasValueSatisfying(reason -> assertThat(reason).contains("has not committed a batch for 30 s")
				.contains("2 consecutive failed deliveries")
				.contains("still down"));
		assertThat(gauge("sawmill.listener.stalled")).isEqualTo(1);
	}

	@Test
	void shouldClearTheStallWhenABatchIsCommitted() {
		progress.failed("redis down");
		clock.advance(Duration.ofMinutes(5));

		progress.committed();

		assertThat(progress.stall()).isEmpty();
		assertThat(gauge("sawmill.listener.stalled")).isZero();
		assertThat(gauge("sawmill.listener.consecutive.failures")).isZero();
	}

	@Test
	void shouldKeepEachConsumerThreadsFailuresApart() throws InterruptedException {
		progress.failed("a");
		progress.failed("b");
		Thread other = new Thread(() -> {
			progress.failed("c");
			progress.committed();
		});
		other.start();
		other.join(10_000);

		assertThat(progress.consecutiveFailures()).isEqualTo(2);
		assertThat(progress.failed("d")).isEqualTo(Duration.ofMillis(400));
	}

	private double gauge(String name) {
		return registry.get(name).tag("group", "g1").gauge().value();
	}

}
