package io.sawmill.metrics;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The per-batch meters of one consumer group. Timers publish a percentile histogram (mergeable
 * across pods with {@code histogram_quantile}) up to {@link #MAX_EXPECTED_BATCH} — a busy batch took
 * 86 s in the field, past the default one-minute top bucket — and a recent P50/P99 for the pod itself.
 * <p>
 * Thread-safe: listener threads record concurrently.
 */
public final class SawmillMetrics {

	/** The top of the histogram buckets of the batch and pipeline timers. */
	public static final Duration MAX_EXPECTED_BATCH = Duration.ofMinutes(5);

	private final MeterRegistry registry;
	private final String group;
	private final Timer batchDuration;
	private final Timer pipelineDuration;
	private final DistributionSummary batchRecords;
	private final DistributionSummary redisCommands;
	private final Map<String, Counter> recordCounters = new ConcurrentHashMap<>();

	public SawmillMetrics(MeterRegistry registry, String group) {
		this.registry = registry;
		this.group = group;
		this.batchDuration = Timer.builder("sawmill.batch.duration")
			.description("Poll-to-commit time of one batch")
			.tag("group", group)
			.publishPercentileHistogram()
			.publishPercentiles(0.5, 0.99)
			.maximumExpectedValue(MAX_EXPECTED_BATCH)
			.register(registry);
		this.pipelineDuration = Timer.builder("sawmill.redis.pipeline.duration")
			.description("Redis round trip of one batch: first command queued to last reply")
			.tag("group", group)
			.publishPercentileHistogram()
			.publishPercentiles(0.5, 0.99)
			.maximumExpectedValue(MAX_EXPECTED_BATCH)
			.register(registry);
		this.batchRecords = DistributionSummary.builder("sawmill.batch.records")
			.description("Records per batch")
			.tag("group", group)
			.register(registry);
		this.redisCommands = DistributionSummary.builder("sawmill.redis.commands")
			.description("Redis commands per batch")
			.tag("group", group)
			.register(registry);
	}

	public MeterRegistry registry() {
		return registry;
	}

	public String group() {
		return group;
	}

	/** Called once per committed batch. */
	public void batchCommitted(Duration pollToCommit, int records) {
		batchDuration.record(pollToCommit);
		batchRecords.record(records);
	}

	/** Called once per pipelined round trip, successful or not. */
	public void pipelineCompleted(Duration roundTrip, int commands) {
		pipelineDuration.record(roundTrip);
		redisCommands.record(commands);
	}

	public void records(String topic, RecordOutcome outcome, int count) {
		if (count == 0) {
			return;
		}
		recordCounters.computeIfAbsent(topic + '\u0000' + outcome.tag(), ignored -> Counter.builder("sawmill.records")
			.description("Records by outcome")
			.tags("topic", topic, "outcome", outcome.tag(), "group", group)
			.register(registry)).increment(count);
	}

	/** The batch timer, e.g. for a status line's recent P99. */
	public Timer batchDuration() {
		return batchDuration;
	}
}
