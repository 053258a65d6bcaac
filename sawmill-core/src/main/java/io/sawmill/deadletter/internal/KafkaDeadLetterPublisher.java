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
package io.sawmill.deadletter.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.support.KafkaHeaders;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.deadletter.DeadLetterPublishException;
import io.sawmill.deadletter.DeadLetterPublisher;

/**
 * Publishes dead letters to {@code <source topic><suffix>} (by default
 * {@code <topic>.DLT}) with the original key, value and headers, plus headers that say
 * why: Spring Kafka's own dead-letter headers ({@code kafka_dlt-original-topic},
 * {@code -partition}, {@code -offset}, {@code -timestamp},
 * {@code kafka_dlt-exception-fqcn}, {@code kafka_dlt-exception-message}, encoded as
 * Spring's {@code DeadLetterPublishingRecoverer} does) and {@link #REASON_HEADER} and
 * {@link #VERSION_HEADER}.
 * <p>
 * A dead letter always fits: when the dead-letter topic or the producer's own size check
 * refuses one as too large ({@link RecordTooLargeException}), it is published again
 * without its value, marked with {@link #VALUE_DROPPED_HEADER}, and if that is still too
 * large with only its coordinates and reason ({@link DeadLetterShape}). The source
 * partition moves on, and the record is found by its original offset. Any other failure
 * is retried and then thrown.
 * <p>
 * Thread-safe: one idempotent producer shared by all listener threads, created on first
 * use (so that its {@code max.request.size} can follow the dead-letter topics Sawmill
 * created at start-up).
 */
public final class KafkaDeadLetterPublisher implements DeadLetterPublisher, AutoCloseable {

	/** A sentence saying why the record was dead-lettered. */
	public static final String REASON_HEADER = "sawmill-dlt-reason";

	/** The Sawmill version that dead-lettered it. */
	public static final String VERSION_HEADER = "sawmill-version";

	/**
	 * Present when the dead letter is published without the original value (and perhaps
	 * key and headers) because the dead-letter topic refused it as too large: what was
	 * dropped, its size, and the broker's or producer's message.
	 */
	public static final String VALUE_DROPPED_HEADER = "sawmill-dlt-value-dropped";

	/**
	 * The longest reason and exception message a {@link DeadLetterShape#COORDINATES_ONLY}
	 * dead letter carries.
	 */
	static final int SHORT_TEXT = 1_000;

	private static final Logger log = LoggerFactory.getLogger(KafkaDeadLetterPublisher.class);

	private static final byte[] VERSION = version().getBytes(StandardCharsets.UTF_8);

	private final Supplier<Producer<byte[], byte[]>> producerFactory;

	private final DeadLetterConfig config;

	private volatile @Nullable Producer<byte[], byte[]> producer;

	private final DeadLetterLog deadLetterLog;

	KafkaDeadLetterPublisher(Producer<byte[], byte[]> producer, DeadLetterConfig config) {
		this(() -> producer, config);
	}

	private KafkaDeadLetterPublisher(Supplier<Producer<byte[], byte[]>> producerFactory, DeadLetterConfig config) {
		this.producerFactory = producerFactory;
		this.config = config;
		this.deadLetterLog = new DeadLetterLog(Clock.systemUTC());
	}

	/**
	 * @param producerProperties Kafka producer properties (bootstrap servers, security…);
	 * serializers are byte arrays, and acks=all with idempotence are always set
	 */
	public static KafkaDeadLetterPublisher of(Map<String, Object> producerProperties, DeadLetterConfig config) {
		return of(producerProperties, config, () -> 0);
	}

	/**
	 * @param maxRequestSize asked once, when the producer is created (at the first dead
	 * letter): the largest dead letter, in bytes, the dead-letter topics accept; the
	 * producer's {@code max.request.size} (and, if smaller, {@code buffer.memory}) is
	 * raised to it unless {@code max.request.size} is set in {@code producerProperties}.
	 * 0 keeps Kafka's default.
	 */
	public static KafkaDeadLetterPublisher of(Map<String, Object> producerProperties, DeadLetterConfig config,
			IntSupplier maxRequestSize) {
		Map<String, Object> properties = new java.util.HashMap<>(producerProperties);
		properties.put(ProducerConfig.ACKS_CONFIG, "all");
		properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
		properties.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "sawmill-dlt");
		return new KafkaDeadLetterPublisher(() -> {
			Map<String, Object> sized = new java.util.HashMap<>(properties);
			int size = maxRequestSize.getAsInt();
			if (size > 0 && !sized.containsKey(ProducerConfig.MAX_REQUEST_SIZE_CONFIG)) {
				sized.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, size);
				long buffer = Long.parseLong(
						String.valueOf(sized.getOrDefault(ProducerConfig.BUFFER_MEMORY_CONFIG, 32L * 1024 * 1024)));
				sized.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Math.max(buffer, size));
				log.info(
						"Dead-letter producer: max.request.size={} (fits the largest record of the source topics, with its headers)",
						size);
			}
			return new KafkaProducer<>(sized, new ByteArraySerializer(), new ByteArraySerializer());
		}, config);
	}

	private Producer<byte[], byte[]> producer() {
		Producer<byte[], byte[]> current = producer;
		if (current == null) {
			synchronized (this) {
				current = producer;
				if (current == null) {
					current = producerFactory.get();
					producer = current;
				}
			}
		}
		return current;
	}

	@Override
	public void publish(List<DeadLetter> deadLetters) {
		if (deadLetters.isEmpty()) {
			return;
		}
		Exception last = null;
		for (int attempt = 1; attempt <= config.maxAttempts(); attempt++) {
			try {
				sendAll(deadLetters);
				deadLetterLog.published(deadLetters, config::topicFor);
				return;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new DeadLetterPublishException("interrupted while publishing dead letters", ex);
			}
			catch (ExecutionException | TimeoutException | RuntimeException ex) {
				last = ex;
				log.warn("Publishing {} dead letters failed (attempt {} of {}): {}", deadLetters.size(), attempt,
						config.maxAttempts(), ex.toString());
			}
		}
		throw new DeadLetterPublishException(
				"could not publish " + deadLetters.size() + " dead letters after " + config.maxAttempts() + " attempts",
				last);
	}

	private void sendAll(List<DeadLetter> deadLetters)
			throws InterruptedException, ExecutionException, TimeoutException {
		long deadline = System.nanoTime() + config.sendTimeout().toNanos();
		List<DeadLetter> pending = deadLetters;
		DeadLetterShape shape = DeadLetterShape.FULL;
		Map<DeadLetter, RecordTooLargeException> refusals = new java.util.IdentityHashMap<>();
		while (!pending.isEmpty()) {
			List<DeadLetter> tooLarge = send(pending, shape, refusals, deadline);
			if (!tooLarge.isEmpty() && shape == DeadLetterShape.COORDINATES_ONLY) {
				throw refusals.get(tooLarge.get(0));
			}
			shape = shape.smaller();
			pending = tooLarge;
		}
	}

	/**
	 * Sends each dead letter in {@code shape} and awaits them all.
	 * @return the dead letters refused as too large (their refusal put in
	 * {@code refusals})
	 */
	private List<DeadLetter> send(List<DeadLetter> deadLetters, DeadLetterShape shape,
			Map<DeadLetter, RecordTooLargeException> refusals, long deadline)
			throws InterruptedException, ExecutionException, TimeoutException {
		Producer<byte[], byte[]> producer = producer();
		List<Future<RecordMetadata>> sent = new ArrayList<>(deadLetters.size());
		for (DeadLetter deadLetter : deadLetters) {
			sent.add(producer.send(toRecord(deadLetter, shape, refusals.get(deadLetter))));
		}
		producer.flush();
		List<DeadLetter> tooLarge = new ArrayList<>(0);
		for (int i = 0; i < sent.size(); i++) {
			try {
				sent.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
			catch (ExecutionException ex) {
				if (!(ex.getCause() instanceof RecordTooLargeException refused)) {
					throw ex;
				}
				DeadLetter deadLetter = deadLetters.get(i);
				refusals.put(deadLetter, refused);
				tooLarge.add(deadLetter);
				ConsumerRecord<byte[], byte[]> original = deadLetter.record();
				log.warn("Dead letter of {}-{}@{} refused as too large ({}); publishing it {}", original.topic(),
						original.partition(), original.offset(), refused.getMessage(),
						shape == DeadLetterShape.FULL ? "without its value" : "with its coordinates and reason only");
			}
		}
		return tooLarge;
	}

	ProducerRecord<byte[], byte[]> toRecord(DeadLetter deadLetter) {
		return toRecord(deadLetter, DeadLetterShape.FULL, null);
	}

	/**
	 * @param refusal why the previous, larger shape was refused; null for
	 * {@link DeadLetterShape#FULL}
	 */
	ProducerRecord<byte[], byte[]> toRecord(DeadLetter deadLetter, DeadLetterShape shape,
			@Nullable RecordTooLargeException refusal) {
		ConsumerRecord<byte[], byte[]> original = deadLetter.record();
		boolean shortened = shape == DeadLetterShape.COORDINATES_ONLY;
		RecordHeaders headers = new RecordHeaders();
		if (!shortened) {
			for (Header header : original.headers()) {
				headers.add(header);
			}
		}
		headers.add(KafkaHeaders.DLT_ORIGINAL_TOPIC, utf8(original.topic()));
		headers.add(KafkaHeaders.DLT_ORIGINAL_PARTITION, ByteBuffer.allocate(4).putInt(original.partition()).array());
		headers.add(KafkaHeaders.DLT_ORIGINAL_OFFSET, ByteBuffer.allocate(8).putLong(original.offset()).array());
		headers.add(KafkaHeaders.DLT_ORIGINAL_TIMESTAMP, ByteBuffer.allocate(8).putLong(original.timestamp()).array());
		headers.add(KafkaHeaders.DLT_ORIGINAL_TIMESTAMP_TYPE, utf8(original.timestampType().toString()));
		Throwable cause = deadLetter.cause();
		headers.add(KafkaHeaders.DLT_EXCEPTION_FQCN, utf8(cause == null ? "" : cause.getClass().getName()));
		String exceptionMessage = cause == null ? "" : String.valueOf(cause.getMessage());
		headers.add(KafkaHeaders.DLT_EXCEPTION_MESSAGE, utf8(shortened ? shorten(exceptionMessage) : exceptionMessage));
		headers.add(REASON_HEADER, utf8(shortened ? shorten(deadLetter.reason()) : deadLetter.reason()));
		headers.add(VERSION_HEADER, VERSION);
		if (shape != DeadLetterShape.FULL) {
			headers.add(VALUE_DROPPED_HEADER, utf8(dropped(original, shape, refusal)));
		}
		byte[] key = shortened ? null : original.key();
		byte[] value = shape == DeadLetterShape.FULL ? original.value() : null;
		return new ProducerRecord<>(config.topicFor(original.topic()), null, key, value, headers);
	}

	/**
	 * E.g. "value of 2097152 bytes dropped: the dead letter was too large for the
	 * dead-letter topic (…)".
	 */
	private static String dropped(ConsumerRecord<byte[], byte[]> original, DeadLetterShape shape,
			@Nullable RecordTooLargeException refusal) {
		int valueBytes = original.value() == null ? 0 : original.value().length;
		String what = shape == DeadLetterShape.WITHOUT_VALUE ? "value of " + valueBytes + " bytes"
				: "value of " + valueBytes + " bytes, key of " + (original.key() == null ? 0 : original.key().length)
						+ " bytes and the original headers";
		return what + " dropped: the dead letter was too large for the dead-letter topic ("
				+ shorten(refusal == null ? "" : String.valueOf(refusal.getMessage())) + ")";
	}

	private static String shorten(String text) {
		return text.length() <= SHORT_TEXT ? text : text.substring(0, SHORT_TEXT) + "…";
	}

	private static byte[] utf8(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	static String version() {
		try (InputStream in = KafkaDeadLetterPublisher.class
			.getResourceAsStream("/io/sawmill/sawmill-version.properties")) {
			Properties properties = new Properties();
			if (in != null) {
				properties.load(in);
			}
			return properties.getProperty("version", "unknown");
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	@Override
	public void close() {
		Producer<byte[], byte[]> current = producer;
		if (current != null) {
			current.close(java.time.Duration.ofSeconds(5));
		}
	}

}
