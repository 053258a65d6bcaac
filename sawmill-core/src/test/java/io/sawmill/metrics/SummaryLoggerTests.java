package io.sawmill.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.testkit.MutableClock;

class SummaryLoggerTests {

	private final SawmillMetrics metrics = new SawmillMetrics(new SimpleMeterRegistry(), "loader");
	private final MutableClock clock = new MutableClock(
			Instant.parse("2025-01-01T00:00:00Z"));

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
