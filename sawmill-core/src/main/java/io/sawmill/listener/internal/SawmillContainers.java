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
package io.sawmill.listener.internal;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;

import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.RedisBatchWriter;
import io.sawmill.redis.internal.TransactionalBatchWriter;

/**
 * Builds the listener container that runs Sawmill's data path: a batch listener per
 * consumer thread ({@link ListenerConfig#concurrency()}), auto-commit off, offsets
 * committed by the listener right after Redis acknowledged the batch (asynchronously
 * while the consumer is behind, synchronously once it has caught up and before partitions
 * are revoked: {@link OffsetCommits}). While the consumer is behind, one batch per thread
 * is in flight while the next is mapped and sent. Each consumer thread's data path is a
 * {@link ConsumerLane}. The consumers subscribe to {@link ListenerConfig#topics()}, or
 * with {@link ListenerConfig#topicPattern()} when it is set.
 */
public final class SawmillContainers {

	/**
	 * How long a consumer polls before an empty poll returns, and how long without
	 * records makes its container idle: then the listener finishes a batch it left in
	 * flight.
	 */
	static final Duration IDLE_CHECK = Duration.ofSeconds(1);

	private SawmillContainers() {
	}

	/**
	 * @param consumerProperties the Kafka consumer properties (bootstrap servers,
	 * security…); the ones Sawmill's contract depends on are overridden, see
	 * {@link #consumerProperties}
	 */
	public static ConcurrentMessageListenerContainer<byte[], byte[]> create(Map<String, Object> consumerProperties,
			ListenerConfig config, RecordMapper mapper, RedisBatchWriter writer, DeadLetterPublisher deadLetters,
			RedisCircuit circuit, SawmillMetrics metrics) {
		return create(consumerProperties, config, mapper, writer, deadLetters, circuit, metrics,
				ListenerProgress.of(config, metrics, Clock.systemUTC()));
	}

	/**
	 * As
	 * {@link #create(Map, ListenerConfig, RecordMapper, RedisBatchWriter, DeadLetterPublisher, RedisCircuit, SawmillMetrics)},
	 * reporting the listener's progress (failed deliveries, stalls) to {@code progress}.
	 */
	public static ConcurrentMessageListenerContainer<byte[], byte[]> create(Map<String, Object> consumerProperties,
			ListenerConfig config, RecordMapper mapper, RedisBatchWriter writer, DeadLetterPublisher deadLetters,
			RedisCircuit circuit, SawmillMetrics metrics, ListenerProgress progress) {
		DefaultKafkaConsumerFactory<byte[], byte[]> consumers = new DefaultKafkaConsumerFactory<>(
				consumerProperties(consumerProperties, config), new ByteArrayDeserializer(),
				new ByteArrayDeserializer());
		return create(consumers, config, mapper, writer, deadLetters, circuit, metrics, progress);
	}

	/**
	 * The container on consumers from {@code consumers} as they are (tests pass a mocked
	 * factory here).
	 */
	static ConcurrentMessageListenerContainer<byte[], byte[]> create(ConsumerFactory<byte[], byte[]> consumers,
			ListenerConfig config, RecordMapper mapper, RedisBatchWriter writer, DeadLetterPublisher deadLetters,
			RedisCircuit circuit, SawmillMetrics metrics, ListenerProgress progress) {
		ContainerProperties properties = config.topicPattern() != null ? new ContainerProperties(config.topicPattern())
				: new ContainerProperties(config.topics().toArray(String[]::new));
		// the listener commits (OffsetCommits); the container never does, as nothing is
		// acknowledged to it
		properties.setAckMode(ContainerProperties.AckMode.MANUAL_IMMEDIATE);
		properties.setShutdownTimeout(config.shutdownTimeout().toMillis());
		// a batch left in flight when the topic goes quiet is finished within about two
		// of these
		properties.setPollTimeout(IDLE_CHECK.toMillis());
		properties.setIdleEventInterval(IDLE_CHECK.toMillis());
		ContainerPauses pauses = new ContainerPauses(ContainerPauses.Timer.JDK);
		Redelivery redelivery = new Redelivery(progress, pauses, metrics);
		Function<BatchCommit, DeliveryMode> mode = switch (config.delivery()) {
			case AT_LEAST_ONCE ->
				AtLeastOnce.with(new PerRecordPipeline(writer, config, circuit, metrics), redelivery, metrics);
			case EXACTLY_ONCE ->
				ExactlyOnce.with(new TransactionalPipeline(transactional(writer), config, circuit, metrics));
		};
		PipelineBatchListener listener = new PipelineBatchListener(
				() -> new ConsumerLane(mapper, config, mode, deadLetters, metrics, redelivery));
		properties.setMessageListener(listener);
		properties.setConsumerRebalanceListener(listener);
		ConcurrentMessageListenerContainer<byte[], byte[]> container = new ConcurrentMessageListenerContainer<>(
				consumers, properties);
		container.setConcurrency(config.concurrency());
		container.setCommonErrorHandler(new RedeliverBatchErrorHandler(redelivery));
		container.setBeanName("sawmill-" + config.groupId());
		pauses.control(container);
		circuit.controls(pauses);
		return container;
	}

	private static TransactionalBatchWriter transactional(RedisBatchWriter writer) {
		if (writer instanceof TransactionalBatchWriter transactional) {
			return transactional;
		}
		throw new IllegalStateException("sawmill.delivery=exactly-once needs a RedisBatchWriter that can send "
				+ "transactions (a " + TransactionalBatchWriter.class.getName() + "), but "
				+ writer.getClass().getName() + " cannot: use the default writer, or sawmill.delivery=at-least-once");
	}

	/**
	 * Tells {@code listener} (as well as any added before it) of every assignment and
	 * revocation of a container made by {@link #create}, after Sawmill has committed what
	 * it acknowledged on revoked partitions. Use this rather than replacing the
	 * container's rebalance listener, which does that commit.
	 */
	public static void alsoNotifyOnRebalance(ConcurrentMessageListenerContainer<byte[], byte[]> container,
			ConsumerRebalanceListener listener) {
		if (!(container.getContainerProperties()
			.getConsumerRebalanceListener() instanceof PipelineBatchListener commits)) {
			throw new IllegalStateException("the container's rebalance listener was replaced; "
					+ "Sawmill needs it to commit before partitions are revoked");
		}
		commits.alsoNotify(listener);
	}

	/**
	 * The consumer properties Sawmill runs with: the given ones, then {@code group.id},
	 * {@code max.poll.records} = batch size, {@code enable.auto.commit=false} and
	 * byte-array deserializers always; {@code auto.offset.reset=earliest} (a new group
	 * starts from the beginning rather than skipping what is already in the topic) and
	 * cooperative-sticky assignment (no stop-the-world rebalances) unless set explicitly,
	 * or unless {@code group.protocol=consumer} (KIP-848), where the broker assigns and
	 * the consumer rejects an assignment strategy.
	 */
	public static Map<String, Object> consumerProperties(Map<String, Object> given, ListenerConfig config) {
		Map<String, Object> properties = new HashMap<>(given);
		properties.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
		properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, config.batchSize());
		properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		properties.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		if (!"consumer".equalsIgnoreCase(String.valueOf(properties.get(ConsumerConfig.GROUP_PROTOCOL_CONFIG)))) {
			properties.putIfAbsent(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
					CooperativeStickyAssignor.class.getName());
		}
		return properties;
	}

}
