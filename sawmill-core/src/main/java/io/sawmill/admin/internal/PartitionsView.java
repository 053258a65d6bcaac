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
package io.sawmill.admin.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.listener.MessageListenerContainer;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.deadletter.internal.DeadLetterBrake;
import io.sawmill.listener.internal.RedisCircuit;
import io.sawmill.metrics.RecordOutcome;

/**
 * Every partition of Sawmill's topics (those its routes' patterns match too), owned by
 * this instance or not: committed and end offsets read from the broker, lag in seconds
 * from this instance's {@code sawmill.lag.seconds} gauge (owned partitions only), and why
 * a partition is paused; per topic, this instance's records written, dead-lettered and
 * (exactly-once) fenced; and its partitions found reset below their watermark.
 */
final class PartitionsView {

	private final MessageListenerContainer container;

	private final Admin admin;

	private final RoutedTopics topics;

	private final String group;

	private final RedisCircuit circuit;

	private final @Nullable DeadLetterBrake brake;

	private final MeterRegistry registry;

	private final OperatorPauses pauses;

	private final Duration timeout;

	/**
	 * @param brake null when the brake is off
	 * @param topics the topics and routes; read on each call, so routes added later show
	 * @param timeout how long each read from the broker waits
	 */
	PartitionsView(MessageListenerContainer container, Admin admin, RoutedTopics topics, String group,
			RedisCircuit circuit, @Nullable DeadLetterBrake brake, MeterRegistry registry, OperatorPauses pauses,
			Duration timeout) {
		this.container = container;
		this.admin = admin;
		this.topics = topics;
		this.group = group;
		this.circuit = circuit;
		this.brake = brake;
		this.registry = registry;
		this.pauses = pauses;
		this.timeout = timeout;
	}

	Map<String, Object> read() throws Exception {
		long millis = timeout.toMillis();
		List<String> topics = this.topics.current(admin, timeout);
		Map<String, TopicDescription> described = admin.describeTopics(topics)
			.allTopicNames()
			.get(millis, TimeUnit.MILLISECONDS);
		List<TopicPartition> partitions = described.values()
			.stream()
			.flatMap(t -> t.partitions().stream().map(p -> new TopicPartition(t.name(), p.partition())))
			.toList();
		Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
			.partitionsToOffsetAndMetadata()
			.get(millis, TimeUnit.MILLISECONDS);
		Map<TopicPartition, Long> ends = offsets(admin, partitions, OffsetSpec.latest(), millis);
		Map<TopicPartition, Long> starts = offsets(admin, partitions, OffsetSpec.earliest(), millis);
		Map<TopicPartition, String> owners = owners(container);
		String containerPause = containerPause();

		Map<String, Object> view = new LinkedHashMap<>();
		view.put("group", group);
		view.put("circuit", circuit.state().name());
		view.put("brake",
				brake == null ? "off" : brake.engaged().map(trip -> "engaged: " + trip.describe()).orElse("released"));
		view.put("operatorPaused", pauses.topics());
		view.put("offsetResets", offsetResets());
		List<Map<String, Object>> perTopic = new ArrayList<>();
		for (String topic : topics) {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("topic", topic);
			entry.put("route", this.topics.routeOf(topic));
			entry.put("deadLetters", (long) counted(topic, RecordOutcome.DEAD_LETTERED));
			entry.put("written", (long) counted(topic, RecordOutcome.WRITTEN));
			entry.put("fenced", (long) counted(topic, RecordOutcome.FENCED));
			List<Map<String, Object>> rows = new ArrayList<>();
			for (TopicPartition partition : partitions.stream().filter(p -> p.topic().equals(topic)).toList()) {
				OffsetAndMetadata done = committed.get(partition);
				long from = done != null ? done.offset()
						: Objects.requireNonNull(starts.get(partition), "listed for every partition");
				Map<String, Object> row = new LinkedHashMap<>();
				row.put("partition", partition.partition());
				String owner = owners.get(partition);
				row.put("assigned", owner != null);
				row.put("consumer", owner);
				row.put("committedOffset", done == null ? null : done.offset());
				row.put("endOffset", ends.get(partition));
				row.put("lagRecords",
						Math.max(0, Objects.requireNonNull(ends.get(partition), "listed for every partition") - from));
				row.put("lagSeconds", owner == null ? null : lagSeconds(partition));
				List<String> why = new ArrayList<>();
				if (pauses.paused(topic)) {
					why.add("operator");
				}
				if (containerPause != null && owner != null) {
					why.add(containerPause);
				}
				row.put("paused", owner != null
						&& (container.isPartitionPaused(partition) || container.isContainerPaused() || !why.isEmpty()));
				row.put("pausedBecause", why);
				rows.add(row);
			}
			entry.put("partitions", rows);
			perTopic.add(entry);
		}
		view.put("topics", perTopic);
		return view;
	}

	/**
	 * Why the whole container is paused (the brake first, as releasing it is the
	 * operator's to do).
	 */
	private @Nullable String containerPause() {
		if (brake != null && brake.engaged().isPresent()) {
			return "dead-letter brake";
		}
		CircuitBreaker.State state = circuit.state();
		if (state == CircuitBreaker.State.OPEN || state == CircuitBreaker.State.FORCED_OPEN) {
			return "redis circuit " + state;
		}
		return null;
	}

	private double counted(String topic, RecordOutcome outcome) {
		return registry.find("sawmill.records")
			.tag("topic", topic)
			.tag("outcome", outcome.tag())
			.counters()
			.stream()
			.mapToDouble(Counter::count)
			.sum();
	}

	/**
	 * Exactly-once: the partitions found reset below their watermark, by what Sawmill did
	 * ({@code replayed}, {@code refused}), as the {@code sawmill.offset.resets} counters
	 * hold them.
	 */
	private Map<String, Long> offsetResets() {
		Map<String, Long> resets = new LinkedHashMap<>();
		registry.find("sawmill.offset.resets")
			.counters()
			.forEach(counter -> resets.merge(String.valueOf(counter.getId().getTag("action")), (long) counter.count(),
					Long::sum));
		return resets;
	}

	private @Nullable Double lagSeconds(TopicPartition partition) {
		Gauge gauge = registry.find("sawmill.lag.seconds")
			.tag("topic", partition.topic())
			.tag("partition", Integer.toString(partition.partition()))
			.gauge();
		return gauge == null || Double.isNaN(gauge.value()) ? null : gauge.value();
	}

	/** Partition → the client id of the consumer thread that owns it here. */
	private static Map<TopicPartition, String> owners(MessageListenerContainer container) {
		Map<TopicPartition, String> owners = new HashMap<>();
		Map<String, Collection<TopicPartition>> byClient = container.getAssignmentsByClientId();
		if (byClient != null) {
			new TreeMap<>(byClient).forEach((client, owned) -> owned.forEach(p -> owners.put(p, client)));
		}
		return owners;
	}

	private static Map<TopicPartition, Long> offsets(Admin admin, List<TopicPartition> partitions, OffsetSpec spec,
			long timeout) throws Exception {
		return admin.listOffsets(partitions.stream().collect(Collectors.toMap(Function.identity(), p -> spec)))
			.all()
			.get(timeout, TimeUnit.MILLISECONDS)
			.entrySet()
			.stream()
			.collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
	}

}
