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

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.redis.internal.ReplicaShortfall;
import io.sawmill.redis.internal.ReplicaShortfalls;

/**
 * The per-batch meters of one consumer group. Timers publish a percentile histogram
 * (mergeable across pods with {@code histogram_quantile}) up to
 * {@link #MAX_EXPECTED_BATCH} — past the default one-minute top bucket, so that even a
 * very slow batch lands in a bucket — and a recent P50/P99 for the pod itself. Optional
 * SLO boundaries add exact buckets to both timers, so that "share of batches under 200
 * ms" is a ratio of two bucket counters rather than an interpolation.
 * <p>
 * Thread-safe: listener threads record concurrently.
 */
public final class SawmillMetrics {

	private static final List<String> OFFSET_RESET_ACTIONS = List.of("replayed", "refused");

	/** The top of the histogram buckets of the batch and pipeline timers. */
	public static final Duration MAX_EXPECTED_BATCH = Duration.ofMinutes(5);

	private final MeterRegistry registry;

	private final String group;

	private final Timer batchDuration;

	private final Timer pipelineDuration;

	private final DistributionSummary batchRecords;

	private final DistributionSummary redisCommands;

	private final Counter keptInFlight;

	private final Counter redelivered;

	private final Counter nonIdempotentRepeated;

	private final Counter writesCoalesced;

	private final Map<String, Counter> recordCounters = new ConcurrentHashMap<>();

	public SawmillMetrics(MeterRegistry registry, String group) {
		this(registry, group, List.of());
	}

	/**
	 * @param sloBuckets extra histogram bucket boundaries of
	 * {@code sawmill.batch.duration} and {@code sawmill.redis.pipeline.duration}, each
	 * greater than 0 and at most {@link #MAX_EXPECTED_BATCH}
	 */
	public SawmillMetrics(MeterRegistry registry, String group, List<Duration> sloBuckets) {
		for (Duration slo : sloBuckets) {
			if (slo.isNegative() || slo.isZero() || slo.compareTo(MAX_EXPECTED_BATCH) > 0) {
				throw new IllegalArgumentException(
						"sloBuckets must be greater than 0 and at most " + MAX_EXPECTED_BATCH + ", but was " + slo);
			}
		}
		Duration[] slos = sloBuckets.stream().sorted().distinct().toArray(Duration[]::new);
		this.registry = registry;
		this.group = group;
		this.batchDuration = Timer.builder("sawmill.batch.duration")
			.description("Poll-to-commit time of one batch")
			.tag("group", group)
			.publishPercentileHistogram()
			.publishPercentiles(0.5, 0.99)
			.maximumExpectedValue(MAX_EXPECTED_BATCH)
			.serviceLevelObjectives(slos)
			.register(registry);
		this.pipelineDuration = Timer.builder("sawmill.redis.pipeline.duration")
			.description(
					"Redis round trip of one batch: from sending its first command to the arrival of its last reply")
			.tag("group", group)
			.publishPercentileHistogram()
			.publishPercentiles(0.5, 0.99)
			.maximumExpectedValue(MAX_EXPECTED_BATCH)
			.serviceLevelObjectives(slos)
			.register(registry);
		this.batchRecords = DistributionSummary.builder("sawmill.batch.records")
			.description("Records per batch")
			.tag("group", group)
			.register(registry);
		this.redisCommands = DistributionSummary.builder("sawmill.redis.commands")
			.description("Redis commands per batch")
			.tag("group", group)
			.register(registry);
		this.keptInFlight = Counter.builder("sawmill.batch.in.flight")
			.description(
					"Batches left in flight (sent, not yet awaited) while the next batch was polled, mapped and sent")
			.tag("group", group)
			.register(registry);
		this.redelivered = Counter.builder("sawmill.batch.redelivered")
			.description("Batches not committed and polled again after a backoff")
			.tag("group", group)
			.register(registry);
		OFFSET_RESET_ACTIONS.forEach(this::offsetResetCounter);
		this.nonIdempotentRepeated = Counter.builder("sawmill.batch.non.idempotent.repeated")
			.description("Batches holding non-idempotent writes that failed transiently and are polled again whole: "
					+ "their writes may be applied more than once")
			.tag("group", group)
			.register(registry);
		this.writesCoalesced = Counter.builder("sawmill.writes.coalesced")
			.description("Writes not sent as commands of their own: merged by sawmill.coalesce-writes into another "
					+ "command of the same key and batch")
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

	/** Called when a batch is left in flight while the next one is polled. */
	public void batchKeptInFlight() {
		keptInFlight.increment();
	}

	/** Called when a batch was not committed and will be polled again. */
	public void batchRedelivered() {
		redelivered.increment();
	}

	/**
	 * Called when a batch holding non-idempotent writes failed transiently and is polled
	 * again whole.
	 */
	public void nonIdempotentBatchRepeated() {
		nonIdempotentRepeated.increment();
	}

	/**
	 * Called per round trip sent, with how many of its records' writes coalescing saved.
	 */
	public void writesCoalesced(int writes) {
		if (writes > 0) {
			writesCoalesced.increment(writes);
		}
	}

	/**
	 * With exactly-once delivery, a newly assigned partition started below its watermark
	 * in Redis from an offset Sawmill did not commit (a group reset, a re-created topic):
	 * counted by what Sawmill did, {@code replayed} or {@code refused}. Both counters
	 * exist from the start, at 0.
	 */
	public void offsetReset(String action) {
		offsetResetCounter(action).increment();
	}

	private Counter offsetResetCounter(String action) {
		return Counter.builder("sawmill.offset.resets")
			.description("Partitions found reset below their exactly-once watermark, by what Sawmill did")
			.tags("action", action, "group", group)
			.register(registry);
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
		recordCounters
			.computeIfAbsent(topic + '\u0000' + outcome.tag(),
					ignored -> Counter.builder("sawmill.records")
						.description("Records by outcome")
						.tags("topic", topic, "outcome", outcome.tag(), "group", group)
						.register(registry))
			.increment(count);
	}

	/**
	 * Records handled so far (written, skipped, invalid, dead-lettered, stale, duplicate;
	 * retried and fenced records are counted when they are handled).
	 */
	public double recordsHandled() {
		return recordCounters.values()
			.stream()
			.filter(counter -> !RecordOutcome.RETRIED.tag().equals(counter.getId().getTag("outcome"))
					&& !RecordOutcome.FENCED.tag().equals(counter.getId().getTag("outcome")))
			.mapToDouble(Counter::count)
			.sum();
	}

	/**
	 * Registers the {@code sawmill.dead.letter.brake.engaged} gauge: 1 while the
	 * dead-letter brake is engaged (consumption paused, nothing committed), else 0.
	 */
	public void deadLetterBrake(BooleanSupplier engaged) {
		Gauge.builder("sawmill.dead.letter.brake.engaged", () -> engaged.getAsBoolean() ? 1 : 0)
			.description("1 while the dead-letter brake is engaged: consumption paused until an operator releases it")
			.tag("group", group)
			.strongReference(true)
			.register(registry);
	}

	/**
	 * Registers the {@code sawmill.redis.replica.shortfall} gauges, one per state
	 * ({@code waiting}, {@code proceeding}, {@code refusing}): how many Redis masters
	 * have fewer replicas attached than {@code sawmill.pipeline.wait-for-replicas}.
	 */
	public void replicaShortfalls(ReplicaShortfalls shortfalls) {
		for (ReplicaShortfall.State state : ReplicaShortfall.State.values()) {
			Gauge
				.builder("sawmill.redis.replica.shortfall",
						() -> shortfalls.current().stream().filter(shortfall -> shortfall.state() == state).count())
				.description("Redis masters with fewer replicas attached than sawmill.pipeline.wait-for-replicas, by "
						+ "what batches do: waiting (refused during the grace), proceeding (with the replicas attached), "
						+ "refusing")
				.tags("group", group, "state", state.tag())
				.strongReference(true)
				.register(registry);
		}
	}

	/** The batch timer, e.g. for a status line's recent P99. */
	public Timer batchDuration() {
		return batchDuration;
	}

}
