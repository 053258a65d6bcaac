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
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.testkit.MutableClock;

class SummaryLoggerTests {

	private final SawmillMetrics metrics = new SawmillMetrics(new SimpleMeterRegistry(), "loader");

	private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));

	@Test
	void shouldReportRecordsPerSecondSinceTheLastLine() {
		SummaryLogger summary = new SummaryLogger(metrics, null, null, Duration.ofMinutes(1), clock);
		metrics.records("events", RecordOutcome.WRITTEN, 1_200);
		metrics.records("events", RecordOutcome.RETRIED, 1_000);
		clock.advance(Duration.ofSeconds(60));

		assertThat(summary.summarize()).startsWith("Sawmill loader: 20.0 records/s, lag 0 records (oldest 0.0 s)");

		metrics.records("events", RecordOutcome.SKIPPED, 30);
		clock.advance(Duration.ofSeconds(10));
		assertThat(summary.summarize()).startsWith("Sawmill loader: 3.0 records/s");
	}

	@Test
	void shouldShowTheBatchP99AndSayWhenNothingIsMeasured() {
		SummaryLogger summary = new SummaryLogger(metrics, null, null, Duration.ofMinutes(1), clock);
		assertThat(summary.summarize()).endsWith("batch P99 n/a, Redis RTT n/a");

		metrics.batchCommitted(Duration.ofMillis(40), 100);
		assertThat(summary.summarize()).containsPattern("batch P99 (39|40)\\.\\d\\d ms, Redis RTT n/a");
	}

	@Test
	void shouldRejectANonPositiveInterval() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SummaryLogger(metrics, null, null, Duration.ZERO, clock))
			.withMessage("interval must be greater than 0, but was PT0S");
	}

}
