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

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.RedisBatchWriter;

/**
 * The share-group consumer threads of this process, {@link ShareConfig#threads()} of
 * them, each with its own {@link KafkaShareConsumer} and {@code ShareLane}. Started and
 * stopped with the application context; stopping wakes every thread, waits up to the
 * shutdown timeout for its round trip, and closes its consumer, which sends the
 * acknowledgements made so far: what was not acknowledged is delivered again when its
 * lock expires.
 */
public final class ShareConsumers implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(ShareConsumers.class);

	/**
	 * Stopped before the writer is closed (Sawmill's graceful stop, one phase above the
	 * listener container's).
	 */
	public static final int PHASE = Integer.MAX_VALUE - 100 + 2;

	/**
	 * Consumer-group settings a share consumer refuses to be created with; removed from
	 * the given properties.
	 */
	private static final Set<String> GROUP_ONLY = Set.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
			ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG,
			ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, ConsumerConfig.ISOLATION_LEVEL_CONFIG,
			ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG,
			ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
			ConsumerConfig.GROUP_PROTOCOL_CONFIG, ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG);

	private final ShareConfig config;

	private final Function<Integer, ShareConsumer<byte[], byte[]>> consumers;

	private final RecordMapper mapper;

	private final RedisBatchWriter writer;

	private final DeadLetterPublisher deadLetters;

	private final SawmillMetrics metrics;

	private final ShareMetrics shareMetrics;

	private final List<ShareLane> lanes = new ArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	private @Nullable CountDownLatch stopping;

	private ShareConsumers(ShareConfig config, Function<Integer, ShareConsumer<byte[], byte[]>> consumers,
			RecordMapper mapper, RedisBatchWriter writer, DeadLetterPublisher deadLetters, SawmillMetrics metrics,
			ShareMetrics shareMetrics) {
		this.config = config;
		this.consumers = consumers;
		this.mapper = mapper;
		this.writer = writer;
		this.deadLetters = deadLetters;
		this.metrics = metrics;
		this.shareMetrics = shareMetrics;
	}

	/**
	 * @param consumerProperties the Kafka client settings (bootstrap servers, security,
	 * …); the share consumer's own are set here ({@link #consumerProperties})
	 */
	public static ShareConsumers of(ShareConfig config, Map<String, Object> consumerProperties, RecordMapper mapper,
			RedisBatchWriter writer, DeadLetterPublisher deadLetters, SawmillMetrics metrics,
			ShareMetrics shareMetrics) {
		return new ShareConsumers(config,
				thread -> new KafkaShareConsumer<>(consumerProperties(consumerProperties, config, thread)), mapper,
				writer, deadLetters, metrics, shareMetrics);
	}

	/**
	 * The given properties without the consumer-group settings a share consumer refuses,
	 * then {@code group.id} (the share group), {@code max.poll.records} = batch size,
	 * explicit acknowledgement, byte-array deserializers, and a client id per thread; and
	 * {@code share.acquire.mode=record_limit} unless set: a thread then locks only the
	 * records its next round trip carries, and the other threads get the rest, rather
	 * than one thread locking a fetch's worth that waits behind its round trip.
	 */
	static Map<String, Object> consumerProperties(Map<String, Object> given, ShareConfig config, int thread) {
		Map<String, Object> properties = new HashMap<>(given);
		properties.keySet().removeAll(GROUP_ONLY);
		properties.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
		properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, config.batchSize());
		properties.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
		properties.putIfAbsent(ConsumerConfig.SHARE_ACQUIRE_MODE_CONFIG, "record_limit");
		properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		Object clientId = properties.getOrDefault(CommonClientConfigs.CLIENT_ID_CONFIG, "sawmill");
		properties.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId + "-share-" + thread);
		return properties;
	}

	@Override
	public synchronized void start() {
		if (stopping != null) {
			return;
		}
		CountDownLatch latch = new CountDownLatch(1);
		stopping = latch;
		writer.open(config.threads());
		for (int i = 0; i < config.threads(); i++) {
			ShareLane lane = new ShareLane(consumers.apply(i), config, mapper, writer, deadLetters, metrics,
					shareMetrics, latch);
			Thread thread = new Thread(lane, "sawmill-share-" + i);
			lanes.add(lane);
			threads.add(thread);
			thread.start();
		}
		log.info("Reading {} as share group '{}' with {} thread(s)", config.topics(), config.groupId(),
				config.threads());
	}

	@Override
	public synchronized void stop() {
		CountDownLatch latch = stopping;
		if (latch == null) {
			return;
		}
		latch.countDown();
		lanes.forEach(ShareLane::wakeUp);
		long deadline = System.nanoTime() + config.shutdownTimeout().toNanos() + Duration.ofSeconds(5).toNanos();
		for (Thread thread : threads) {
			try {
				thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
			if (thread.isAlive()) {
				log.warn("{} did not stop within sawmill.shutdown-timeout; its records are delivered again when "
						+ "their locks expire", thread.getName());
			}
		}
		lanes.clear();
		threads.clear();
		stopping = null;
	}

	@Override
	public synchronized boolean isRunning() {
		return stopping != null;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/**
	 * Whether every consumer thread is alive; false before start and after a thread died.
	 */
	public synchronized boolean healthy() {
		return stopping != null && threads.stream().allMatch(Thread::isAlive);
	}

}
