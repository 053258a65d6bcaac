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

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Lag of every partition assigned to this instance, read through an {@link Admin} client
 * every {@code interval}, right after each assignment, and whenever a gauge is read
 * (scraped) while the last read is more than a second old, so that a scrape sees the lag
 * as it is, not as it was up to an interval ago ({@link ReadOnScrape}):
 * <ul>
 * <li>{@code sawmill.lag.records}: log-end offset minus the group's committed offset
 * (minus the log-start offset where the group has committed nothing);</li>
 * <li>{@code sawmill.lag.seconds}: now minus the timestamp of the oldest record not yet
 * committed (the record at the committed offset), 0 when caught up. The timestamp is read
 * once per move of the committed offset ({@link RecordTimestamps}); the gauge computes
 * "now" at every scrape, so it keeps growing while the consumer is stuck.</li>
 * </ul>
 * Each instance reports only its own partitions, so {@code sum by (topic, partition)}
 * across pods counts each partition once. The numbers come from the broker, not from the
 * consumer's fetch state: they are right straight after a rebalance, unlike the client's
 * {@code records-lag}.
 * <p>
 * Fed by the listener container as its {@link ConsumerRebalanceListener} (called on
 * consumer threads); refreshes run on a daemon thread of its own, or through
 * {@link #refresh()}.
 */
public final class PartitionLagMonitor implements SmartLifecycle, ConsumerRebalanceListener {

	private static final Logger log = LoggerFactory.getLogger(PartitionLagMonitor.class);

	private final Admin admin;

	private final Set<String> topics;

	private final @Nullable Pattern pattern;

	private final SawmillMetrics metrics;

	private final Duration interval;

	private final Duration timeout;

	private final @Nullable RecordTimestamps timestamps;

	private final Clock clock;

	private final Set<TopicPartition> assigned = ConcurrentHashMap.newKeySet();

	private final Map<TopicPartition, PartitionLag> lags = new ConcurrentHashMap<>();

	private final Object refreshing = new Object();

	private final PeriodicTask task;

	private final ReadOnScrape fresh;

	/** Lag in records only, no lag in seconds. */
	public PartitionLagMonitor(Admin admin, List<String> topics, SawmillMetrics metrics, Duration interval) {
		this(admin, topics, metrics, interval, null, Clock.systemUTC());
	}

	/**
	 * @param timestamps reads the oldest uncommitted record's timestamp; null to publish
	 * no {@code sawmill.lag.seconds}
	 * @param clock "now" of the lag in seconds
	 */
	public PartitionLagMonitor(Admin admin, List<String> topics, SawmillMetrics metrics, Duration interval,
			@Nullable RecordTimestamps timestamps, Clock clock) {
		this(admin, topics, null, metrics, interval, timestamps, clock);
	}

	/**
	 * @param pattern the pattern the consumers subscribe with, which then names every
	 * topic they consume (those of {@code topics} too); null without one
	 * @param timestamps reads the oldest uncommitted record's timestamp; null to publish
	 * no {@code sawmill.lag.seconds}
	 * @param clock "now" of the lag in seconds
	 */
	public PartitionLagMonitor(Admin admin, List<String> topics, @Nullable Pattern pattern, SawmillMetrics metrics,
			Duration interval, @Nullable RecordTimestamps timestamps, Clock clock) {
		if (interval.isNegative() || interval.isZero()) {
			throw new IllegalArgumentException("interval must be greater than 0, but was " + interval);
		}
		this.admin = admin;
		this.topics = Set.copyOf(topics);
		this.pattern = pattern;
		this.metrics = metrics;
		this.interval = interval;
		this.task = new PeriodicTask("sawmill-lag", PeriodicTask.warningOnFailure(this::refresh, log,
				() -> "Could not read consumer lag of group " + metrics.group()), Duration.ZERO, interval);
		this.timeout = interval.compareTo(Duration.ofSeconds(10)) < 0 ? Duration.ofSeconds(10) : interval;
		this.timestamps = timestamps;
		this.clock = clock;
		this.fresh = new ReadOnScrape(task, clock);
	}

	@Override
	public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
		partitions.stream().filter(p -> consumes(p.topic())).forEach(assigned::add);
		if (!partitions.isEmpty()) {
			task.runNow();
		}
	}

	private boolean consumes(String topic) {
		return pattern != null ? pattern.matcher(topic).matches() : topics.contains(topic);
	}

	@Override
	public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
		assigned.removeAll(partitions);
		partitions.forEach(this::forget);
	}

	@Override
	public void onPartitionsLost(Collection<TopicPartition> partitions) {
		onPartitionsRevoked(partitions);
	}

	/**
	 * Reads end and committed offsets (and the oldest uncommitted timestamps) once and
	 * updates the gauges.
	 */
	public void refresh() throws Exception {
		synchronized (refreshing) {
			fresh.reading();
			List<TopicPartition> partitions = List.copyOf(assigned);
			lags.keySet().stream().filter(p -> !assigned.contains(p)).toList().forEach(this::forget);
			if (partitions.isEmpty()) {
				return;
			}
			Map<TopicPartition, OffsetAndMetadata> committed = admin
				.listConsumerGroupOffsets(
						Map.of(metrics.group(), new ListConsumerGroupOffsetsSpec().topicPartitions(partitions)))
				.partitionsToOffsetAndMetadata(metrics.group())
				.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			Map<TopicPartition, Long> ends = offsets(partitions, OffsetSpec.latest());
			List<TopicPartition> uncommitted = partitions.stream().filter(p -> committed.get(p) == null).toList();
			Map<TopicPartition, Long> starts = uncommitted.isEmpty() ? Map.of()
					: offsets(uncommitted, OffsetSpec.earliest());
			Map<TopicPartition, Long> from = new HashMap<>();
			for (TopicPartition partition : partitions) {
				OffsetAndMetadata done = committed.get(partition);
				from.put(partition, done != null ? done.offset()
						: Objects.requireNonNull(starts.get(partition), "listed for every uncommitted partition"));
			}
			Map<TopicPartition, Long> oldest = readTimestamps(from, ends);
			for (TopicPartition partition : partitions) {
				if (!assigned.contains(partition)) {
					continue; // revoked while we read
				}
				long committedOffset = Objects.requireNonNull(from.get(partition), "put for every partition above");
				long lag = Math.max(0,
						Objects.requireNonNull(ends.get(partition), "listed for every partition") - committedOffset);
				state(partition).update(lag, committedOffset, oldest.get(partition));
			}
		}
	}

	/**
	 * Timestamps only where there is lag and the committed offset moved since the last
	 * read.
	 */
	private Map<TopicPartition, Long> readTimestamps(Map<TopicPartition, Long> from, Map<TopicPartition, Long> ends) {
		if (timestamps == null) {
			return Map.of();
		}
		Map<TopicPartition, Long> toRead = new HashMap<>();
		Map<TopicPartition, Long> known = new HashMap<>();
		from.forEach((partition, offset) -> {
			PartitionLag previous = lags.get(partition);
			if (Objects.requireNonNull(ends.get(partition), "listed for every partition") <= offset) {
				return;
			}
			if (previous != null && previous.knowsTimestampAt(offset)) {
				known.put(partition, previous.oldestTimestamp);
			}
			else {
				toRead.put(partition, offset);
			}
		});
		if (!toRead.isEmpty()) {
			try {
				known.putAll(timestamps.firstTimestamps(toRead, ends, timeout));
			}
			catch (RuntimeException ex) {
				log.warn("Could not read the oldest uncommitted records of group {}: {}", metrics.group(),
						ex.toString());
			}
		}
		return known;
	}

	private Map<TopicPartition, Long> offsets(Collection<TopicPartition> partitions, OffsetSpec spec) throws Exception {
		Map<TopicPartition, OffsetSpec> request = partitions.stream()
			.collect(Collectors.toMap(Function.identity(), p -> spec));
		Map<TopicPartition, ListOffsetsResultInfo> result = admin.listOffsets(request)
			.all()
			.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		return result.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
	}

	private PartitionLag state(TopicPartition partition) {
		return lags.computeIfAbsent(partition,
				p -> new PartitionLag(metrics, p, timestamps != null, clock, fresh::freshen));
	}

	private void forget(TopicPartition partition) {
		PartitionLag lag = lags.remove(partition);
		if (lag != null) {
			lag.remove(metrics.registry());
		}
	}

	/**
	 * The sum of the lag over this instance's partitions, read again first when the last
	 * read is older than a second.
	 */
	public long totalLag() {
		fresh.freshen();
		return lags.values().stream().mapToLong(PartitionLag::records).sum();
	}

	/**
	 * The largest lag in seconds over this instance's partitions; 0 when caught up or not
	 * measured; read again first when the last read is older than a second.
	 */
	public double maxLagSeconds() {
		fresh.freshen();
		return lags.values().stream().mapToDouble(PartitionLag::seconds).filter(s -> !Double.isNaN(s)).max().orElse(0);
	}

	@Override
	public void start() {
		task.start();
	}

	@Override
	public void stop() {
		task.stop(Duration.ofSeconds(5));
		if (timestamps != null) {
			synchronized (refreshing) {
				timestamps.close();
			}
		}
	}

	@Override
	public boolean isRunning() {
		return task.isRunning();
	}

}
