package io.sawmill.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

class SawmillMetricsTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void shouldAddTheConfiguredSloBoundariesToBothTimers() {
		SawmillMetrics metrics = new SawmillMetrics(registry, "g1", List.of(Duration.ofMillis(200), Duration.ofSeconds(2)));
		metrics.batchCommitted(Duration.ofMillis(150), 10);
		metrics.pipelineCompleted(Duration.ofMillis(150), 20);

		for (String timer : List.of("sawmill.batch.duration", "sawmill.redis.pipeline.duration")) {
			CountAtBucket[] buckets = registry.get(timer).timer().takeSnapshot().histogramCounts();
			assertThat(Arrays.stream(buckets).map(b -> b.bucket(java.util.concurrent.TimeUnit.MILLISECONDS)))
				.as(timer)
				.contains(200.0, 2000.0);
			assertThat(Arrays.stream(buckets).filter(b -> b.bucket(java.util.concurrent.TimeUnit.MILLISECONDS) == 200.0)
				.findFirst().orElseThrow().count()).isEqualTo(1);
		}
	}

	@Test
	void shouldRejectAnSloBucketOutsideTheHistogramNamingIt() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SawmillMetrics(registry, "g1", List.of(Duration.ZERO)))
			.withMessage("sloBuckets must be greater than 0 and at most PT5M, but was PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SawmillMetrics(registry, "g1", List.of(Duration.ofMinutes(6))))
			.withMessageEndingWith("but was PT6M");
	}

	@Test
	void shouldCountRecordsHandledWithoutCountingRetriesTwice() {
		SawmillMetrics metrics = new SawmillMetrics(registry, "g1");
		metrics.records("t", RecordOutcome.WRITTEN, 7);
		metrics.records("t", RecordOutcome.SKIPPED, 2);
		metrics.records("t", RecordOutcome.INVALID, 1);
		metrics.records("t", RecordOutcome.RETRIED, 7);

		assertThat(metrics.recordsHandled()).isEqualTo(10);
	}
}
