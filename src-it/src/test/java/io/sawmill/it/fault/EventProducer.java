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
package io.sawmill.it.fault;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Produces a {@link VersionedEvents} set so that nothing is lost or reordered on the
 * produce side, even across a broker restart: {@code acks=all}, idempotence on, retries
 * until a two-minute delivery timeout. Every send is counted when it is acknowledged;
 * {@link #awaitAllAcknowledged} fails if any was not.
 */
final class EventProducer implements AutoCloseable {

	private static final Duration DELIVERY_TIMEOUT = Duration.ofMinutes(2);

	private final KafkaProducer<byte[], byte[]> producer;

	private final String topic;

	private final VersionedEvents events;

	private final AtomicLong sent = new AtomicLong();

	private final AtomicLong acknowledged = new AtomicLong();

	private final AtomicReference<Exception> firstFailure = new AtomicReference<>();

	private final ExecutorService background = Executors.newSingleThreadExecutor(r -> {
		Thread thread = new Thread(r, "fault-producer");
		thread.setDaemon(true);
		return thread;
	});

	EventProducer(String bootstrapServers, String topic, VersionedEvents events) {
		Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
				ProducerConfig.RETRIES_CONFIG, Integer.MAX_VALUE, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
				(int) DELIVERY_TIMEOUT.toMillis(), ProducerConfig.MAX_BLOCK_MS_CONFIG, DELIVERY_TIMEOUT.toMillis(),
				ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500, ProducerConfig.LINGER_MS_CONFIG, 5,
				ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
		this.producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
		this.topic = topic;
		this.events = events;
	}

	/**
	 * Sends records {@code from…to-1} now, without waiting for their acknowledgements.
	 */
	void send(long from, long to) {
		for (long i = from; i < to; i++) {
			producer.send(events.record(topic, i), (metadata, ex) -> {
				if (ex == null) {
					acknowledged.incrementAndGet();
				}
				else {
					firstFailure.compareAndSet(null, ex);
				}
			});
			sent.incrementAndGet();
		}
	}

	/**
	 * Sends records {@code first…} to the end of the set on a background thread at about
	 * {@code perSecond} records a second.
	 */
	CompletableFuture<Void> sendAtRate(long first, int perSecond) {
		return CompletableFuture.runAsync(() -> {
			long slice = Math.max(1, perSecond / 20);
			long started = System.nanoTime();
			for (long from = first; from < events.records(); from += slice) {
				send(from, Math.min(events.records(), from + slice));
				long due = started + TimeUnit.MILLISECONDS.toNanos((from + slice - first) * 1000 / perSecond);
				long wait = due - System.nanoTime();
				if (wait > 0) {
					try {
						TimeUnit.NANOSECONDS.sleep(wait);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
						return;
					}
				}
			}
		}, background);
	}

	long sent() {
		return sent.get();
	}

	long acknowledged() {
		return acknowledged.get();
	}

	/** Flushes and checks that every record sent was acknowledged by the broker. */
	void awaitAllAcknowledged() {
		producer.flush();
		if (firstFailure.get() != null || acknowledged.get() != sent.get()) {
			throw new AssertionError("the broker acknowledged " + acknowledged.get() + " of " + sent.get()
					+ " records sent; first failure: " + firstFailure.get(), firstFailure.get());
		}
	}

	@Override
	public void close() {
		background.shutdownNow();
		producer.close(Duration.ofSeconds(10));
	}

}
