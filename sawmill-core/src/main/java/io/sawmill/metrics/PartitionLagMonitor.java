package io.sawmill.metrics;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import io.micrometer.core.instrument.Gauge;

/**
 * Lag in records per partition, {@code sawmill.lag.records}: log-end offset minus the group's
 * committed offset (or minus the log-start offset where the group has committed nothing), read
 * through an {@link Admin} client every {@code interval} for every partition of the topics — not
 * only those assigned to this pod, so the number is right straight after a rebalance.
 * <p>
 * Runs on a single daemon thread of its own; {@link #refresh()} may also be called directly.
 */
public final class PartitionLagMonitor implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(PartitionLagMonitor.class);

	private final Admin admin;
	private final List<String> topics;
	private final SawmillMetrics metrics;
	private final Duration interval;
	private final Duration timeout;
	private final Map<TopicPartition, AtomicLong> lags = new ConcurrentHashMap<>();
	private volatile ScheduledExecutorService scheduler;

	public PartitionLagMonitor(Admin admin, List<String> topics, SawmillMetrics metrics, Duration interval) {
		this.admin = admin;
		this.topics = List.copyOf(topics);
		this.metrics = metrics;
		this.interval = interval;
		this.timeout = interval.compareTo(Duration.ofSeconds(10)) < 0 ? Duration.ofSeconds(10) : interval;
	}

	/** Reads end and committed offsets once and updates the gauges. */
	public void refresh() throws Exception {
		Map<String, TopicDescription> descriptions = admin.describeTopics(topics).allTopicNames()
			.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		List<TopicPartition> partitions = descriptions.values().stream()
			.flatMap(d -> d.partitions().stream().map(p -> new TopicPartition(d.name(), p.partition())))
			.toList();
		Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(metrics.group())
			.partitionsToOffsetAndMetadata().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		Map<TopicPartition, ListOffsetsResultInfo> ends = offsets(partitions, OffsetSpec.latest());
		Map<TopicPartition, ListOffsetsResultInfo> starts = offsets(partitions, OffsetSpec.earliest());
		for (TopicPartition partition : partitions) {
			OffsetAndMetadata done = committed.get(partition);
			long from = done != null ? done.offset() : starts.get(partition).offset();
			long lag = Math.max(0, ends.get(partition).offset() - from);
			gauge(partition).set(lag);
		}
	}

	private Map<TopicPartition, ListOffsetsResultInfo> offsets(Collection<TopicPartition> partitions, OffsetSpec spec)
			throws Exception {
		Map<TopicPartition, OffsetSpec> request = partitions.stream()
			.collect(Collectors.toMap(Function.identity(), p -> spec));
		return new HashMap<>(admin.listOffsets(request).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS));
	}

	private AtomicLong gauge(TopicPartition partition) {
		return lags.computeIfAbsent(partition, p -> {
			AtomicLong value = new AtomicLong();
			Gauge.builder("sawmill.lag.records", value, AtomicLong::get)
				.description("Records behind: log-end offset minus committed offset")
				.tags("topic", p.topic(), "partition", Integer.toString(p.partition()), "group", metrics.group())
				.baseUnit("records")
				.register(metrics.registry());
			return value;
		});
	}

	/** The sum of the last lag read over all partitions. */
	public long totalLag() {
		return lags.values().stream().mapToLong(AtomicLong::get).sum();
	}

	@Override
	public void start() {
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
			Thread thread = new Thread(runnable, "sawmill-lag");
			thread.setDaemon(true);
			return thread;
		});
		executor.scheduleWithFixedDelay(this::refreshQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
		scheduler = executor;
	}

	private void refreshQuietly() {
		try {
			refresh();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			log.warn("Could not read consumer lag of group {}: {}", metrics.group(), ex.toString());
		}
	}

	@Override
	public void stop() {
		ScheduledExecutorService executor = scheduler;
		scheduler = null;
		if (executor != null) {
			executor.shutdownNow();
		}
	}

	@Override
	public boolean isRunning() {
		return scheduler != null;
	}
}
