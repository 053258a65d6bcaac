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
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The group's lag as the broker sees it, on <em>every</em> partition of the configured
 * topics — owned by this instance, by another, or by nobody (every consumer stopped):
 * {@code sawmill.group.lag.records{group,topic,partition}} is the log-end offset minus
 * the group's committed offset (minus the log-start offset where the group has committed
 * nothing), read through an {@link Admin} client every {@code interval}.
 * <p>
 * Unlike {@code sawmill.lag.records} (each instance reports only the partitions assigned
 * to it), every instance reports every partition, so aggregate with
 * {@code max by (topic, partition)}. A partition's series therefore outlives the pod that
 * consumed it as long as any instance runs.
 * <p>
 * A failed read keeps the last values (a brief broker hiccup must not reset an alert's
 * {@code for:} clock); after {@value #FAILED_READS_BEFORE_UNKNOWN} failed reads in a row
 * the gauges are removed, so that a rule on the series' absence reports the lag as
 * unknown.
 * <p>
 * Reads run on a daemon thread of its own, or through {@link #refresh()}; gauges are read
 * by scrapes.
 */
public final class GroupLagExporter implements SmartLifecycle {

	/** Failed reads in a row after which the last values are withdrawn. */
	public static final int FAILED_READS_BEFORE_UNKNOWN = 3;

	private static final Logger log = LoggerFactory.getLogger(GroupLagExporter.class);

	private final Admin admin;

	private final List<String> topics;

	private final @Nullable Pattern pattern;

	private final MeterRegistry registry;

	private final String group;

	private final Duration timeout;

	private final PeriodicTask task;

	private final Map<TopicPartition, Partition> partitions = new ConcurrentHashMap<>();

	private final Object refreshing = new Object();

	private volatile int failedReads;

	/**
	 * @param topics the topics the group consumes
	 * @param interval time between two reads, greater than 0
	 */
	public GroupLagExporter(Admin admin, List<String> topics, MeterRegistry registry, String group, Duration interval) {
		this(admin, topics, null, registry, group, interval);
	}

	/**
	 * @param topics the topics the group consumes by name
	 * @param pattern the pattern the group subscribes with, which then names every topic
	 * it consumes (those of {@code topics} too); null without one. The topics it matches
	 * are listed again at every read, so a topic created later gets its series.
	 * @param interval time between two reads, greater than 0
	 */
	public GroupLagExporter(Admin admin, List<String> topics, @Nullable Pattern pattern, MeterRegistry registry,
			String group, Duration interval) {
		if (interval == null || interval.isNegative() || interval.isZero()) {
			throw new IllegalArgumentException("interval must be greater than 0, but was " + interval);
		}
		if (topics.isEmpty() && pattern == null) {
			throw new IllegalArgumentException("topics must not be empty without a pattern, but was " + topics);
		}
		this.admin = admin;
		this.topics = List.copyOf(topics);
		this.pattern = pattern;
		this.registry = registry;
		this.group = group;
		this.timeout = interval.compareTo(Duration.ofSeconds(10)) < 0 ? Duration.ofSeconds(10) : interval;
		this.task = new PeriodicTask("sawmill-group-lag",
				PeriodicTask.warningOnFailure(this::refresh, log, () -> "Could not read the broker-side lag of group "
						+ group + " (" + failedReads + " failed reads in a row)"),
				Duration.ZERO, interval);
	}

	/**
	 * Reads the partitions of the topics, the group's committed offsets and the end
	 * offsets once and updates the gauges.
	 * @throws Exception when a read fails; the gauges keep their values until
	 * {@value #FAILED_READS_BEFORE_UNKNOWN} reads in a row have failed
	 */
	public void refresh() throws Exception {
		synchronized (refreshing) {
			Map<TopicPartition, Long> lags;
			try {
				lags = read();
				failedReads = 0;
			}
			catch (Exception ex) {
				if (++failedReads >= FAILED_READS_BEFORE_UNKNOWN) {
					Set.copyOf(partitions.keySet()).forEach(this::forget);
				}
				throw ex;
			}
			partitions.keySet().stream().filter(p -> !lags.containsKey(p)).toList().forEach(this::forget);
			lags.forEach((partition, lag) -> partitions.computeIfAbsent(partition, Partition::new).records.set(lag));
		}
	}

	private Map<TopicPartition, Long> read() throws Exception {
		Collection<String> names = pattern == null ? topics
				: admin.listTopics()
					.names()
					.get(timeout.toMillis(), TimeUnit.MILLISECONDS)
					.stream()
					.filter(topic -> pattern.matcher(topic).matches())
					.toList();
		if (names.isEmpty()) {
			return Map.of();
		}
		Map<String, TopicDescription> descriptions = admin.describeTopics(names)
			.allTopicNames()
			.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		List<TopicPartition> all = descriptions.values()
			.stream()
			.flatMap(d -> d.partitions().stream().map(p -> new TopicPartition(d.name(), p.partition())))
			.toList();
		Map<TopicPartition, OffsetAndMetadata> committed = admin
			.listConsumerGroupOffsets(Map.of(group, new ListConsumerGroupOffsetsSpec().topicPartitions(all)))
			.partitionsToOffsetAndMetadata(group)
			.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		Map<TopicPartition, Long> ends = offsets(all, OffsetSpec.latest());
		List<TopicPartition> uncommitted = all.stream().filter(p -> committed.get(p) == null).toList();
		Map<TopicPartition, Long> starts = uncommitted.isEmpty() ? Map.of()
				: offsets(uncommitted, OffsetSpec.earliest());
		Map<TopicPartition, Long> lags = new HashMap<>();
		for (TopicPartition partition : all) {
			OffsetAndMetadata done = committed.get(partition);
			long from = done != null ? done.offset()
					: Objects.requireNonNull(starts.get(partition), "listed for every uncommitted partition");
			lags.put(partition,
					Math.max(0, Objects.requireNonNull(ends.get(partition), "listed for every partition") - from));
		}
		return lags;
	}

	private Map<TopicPartition, Long> offsets(Collection<TopicPartition> request, OffsetSpec spec) throws Exception {
		return admin.listOffsets(request.stream().collect(Collectors.toMap(Function.identity(), p -> spec)))
			.all()
			.get(timeout.toMillis(), TimeUnit.MILLISECONDS)
			.entrySet()
			.stream()
			.collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
	}

	private void forget(TopicPartition partition) {
		Partition removed = partitions.remove(partition);
		if (removed != null) {
			registry.remove(removed.gauge);
		}
	}

	/**
	 * The last lag read per partition; empty before the first read and once the lag is
	 * unknown.
	 */
	public Map<TopicPartition, Long> lags() {
		return partitions.entrySet()
			.stream()
			.collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().records.get()));
	}

	@Override
	public void start() {
		task.start();
	}

	@Override
	public void stop() {
		task.stop(Duration.ofSeconds(5));
	}

	@Override
	public boolean isRunning() {
		return task.isRunning();
	}

	/** One partition's gauge and the value behind it. */
	private final class Partition {

		final AtomicLong records = new AtomicLong();

		final Gauge gauge;

		Partition(TopicPartition partition) {
			this.gauge = Gauge.builder("sawmill.group.lag.records", records, AtomicLong::get)
				.description(
						"Broker-side lag of the group on every partition of its topics, owned by this instance or not; "
								+ "every instance reports every partition: aggregate with max by (topic, partition)")
				.tags("group", group, "topic", partition.topic(), "partition", Integer.toString(partition.partition()))
				.baseUnit("records")
				.register(registry);
		}

	}

}
