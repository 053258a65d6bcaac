package io.sawmill.admin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.MessageListenerContainer;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.metrics.RecordOutcome;

/**
 * Every partition of Sawmill's topics, owned by this instance or not: committed and end offsets
 * read from the broker, lag in seconds from this instance's {@code sawmill.lag.seconds} gauge
 * (owned partitions only), and why a partition is paused.
 */
final class PartitionsView {

	private final SawmillOperations operations;

	PartitionsView(SawmillOperations operations) {
		this.operations = operations;
	}

	Map<String, Object> read() throws Exception {
		Admin admin = operations.admin;
		long timeout = SawmillOperations.TIMEOUT.toMillis();
		Map<String, TopicDescription> topics = admin.describeTopics(operations.topics).allTopicNames()
			.get(timeout, TimeUnit.MILLISECONDS);
		List<TopicPartition> partitions = topics.values().stream()
			.flatMap(t -> t.partitions().stream().map(p -> new TopicPartition(t.name(), p.partition())))
			.toList();
		Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(operations.group)
			.partitionsToOffsetAndMetadata()
			.get(timeout, TimeUnit.MILLISECONDS);
		Map<TopicPartition, Long> ends = offsets(admin, partitions, OffsetSpec.latest(), timeout);
		Map<TopicPartition, Long> starts = offsets(admin, partitions, OffsetSpec.earliest(), timeout);
		Map<TopicPartition, String> owners = owners(operations.container);
		String containerPause = containerPause();

		Map<String, Object> view = new LinkedHashMap<>();
		view.put("group", operations.group);
		view.put("circuit", operations.circuit.state().name());
		view.put("brake", operations.brake == null ? "off"
				: operations.brake.engaged().map(trip -> "engaged: " + trip.describe()).orElse("released"));
		view.put("operatorPaused", operations.pauses.topics());
		List<Map<String, Object>> perTopic = new ArrayList<>();
		for (String topic : operations.topics) {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("topic", topic);
			entry.put("route", operations.routeOf(topic));
			entry.put("deadLetters", (long) counted(topic, RecordOutcome.DEAD_LETTERED));
			entry.put("written", (long) counted(topic, RecordOutcome.WRITTEN));
			List<Map<String, Object>> rows = new ArrayList<>();
			for (TopicPartition partition : partitions.stream().filter(p -> p.topic().equals(topic)).toList()) {
				OffsetAndMetadata done = committed.get(partition);
				long from = done != null ? done.offset() : starts.get(partition);
				Map<String, Object> row = new LinkedHashMap<>();
				row.put("partition", partition.partition());
				String owner = owners.get(partition);
				row.put("assigned", owner != null);
				row.put("consumer", owner);
				row.put("committedOffset", done == null ? null : done.offset());
				row.put("endOffset", ends.get(partition));
				row.put("lagRecords", Math.max(0, ends.get(partition) - from));
				row.put("lagSeconds", owner == null ? null : lagSeconds(partition));
				List<String> why = new ArrayList<>();
				if (operations.pauses.paused(topic)) {
					why.add("operator");
				}
				if (containerPause != null && owner != null) {
					why.add(containerPause);
				}
				row.put("paused", owner != null && (operations.container.isPartitionPaused(partition)
						|| operations.container.isContainerPaused() || !why.isEmpty()));
				row.put("pausedBecause", why);
				rows.add(row);
			}
			entry.put("partitions", rows);
			perTopic.add(entry);
		}
		view.put("topics", perTopic);
		return view;
	}

	/** Why the whole container is paused (the brake first, as releasing it is the operator's to do). */
	private String containerPause() {
		if (operations.brake != null && operations.brake.engaged().isPresent()) {
			return "dead-letter brake";
		}
		CircuitBreaker.State state = operations.circuit.state();
		if (state == CircuitBreaker.State.OPEN || state == CircuitBreaker.State.FORCED_OPEN) {
			return "redis circuit " + state;
		}
		return null;
	}

	private double counted(String topic, RecordOutcome outcome) {
		return operations.registry.find("sawmill.records").tag("topic", topic).tag("outcome", outcome.tag())
			.counters().stream().mapToDouble(Counter::count).sum();
	}

	private Double lagSeconds(TopicPartition partition) {
		Gauge gauge = operations.registry.find("sawmill.lag.seconds").tag("topic", partition.topic())
			.tag("partition", Integer.toString(partition.partition())).gauge();
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
