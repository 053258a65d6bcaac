package io.sawmill.deadletter;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.support.KafkaHeaders;

/**
 * Publishes dead letters to {@code <source topic><suffix>} (by default {@code <topic>.DLT}) with the
 * original key, value and headers, plus headers that say why: Spring Kafka's own dead-letter headers
 * ({@code kafka_dlt-original-topic}, {@code -partition}, {@code -offset}, {@code -timestamp},
 * {@code kafka_dlt-exception-fqcn}, {@code kafka_dlt-exception-message}, encoded as Spring's
 * {@code DeadLetterPublishingRecoverer} does) and {@link #REASON_HEADER} and {@link #VERSION_HEADER}.
 * <p>
 * Thread-safe: one idempotent producer shared by all listener threads.
 */
public final class KafkaDeadLetterPublisher implements DeadLetterPublisher, AutoCloseable {

	/** A sentence saying why the record was dead-lettered. */
	public static final String REASON_HEADER = "sawmill-dlt-reason";

	/** The Sawmill version that dead-lettered it. */
	public static final String VERSION_HEADER = "sawmill-version";

	private static final Logger log = LoggerFactory.getLogger(KafkaDeadLetterPublisher.class);

	private static final byte[] VERSION = version().getBytes(StandardCharsets.UTF_8);

	private final Producer<byte[], byte[]> producer;
	private final DeadLetterConfig config;

	KafkaDeadLetterPublisher(Producer<byte[], byte[]> producer, DeadLetterConfig config) {
		this.producer = producer;
		this.config = config;
	}

	/**
	 * @param producerProperties Kafka producer properties (bootstrap servers, security…);
	 *     serializers are byte arrays, and acks=all with idempotence are always set
	 */
	public static KafkaDeadLetterPublisher of(Map<String, Object> producerProperties, DeadLetterConfig config) {
		Map<String, Object> properties = new java.util.HashMap<>(producerProperties);
		properties.put("acks", "all");
		properties.put("enable.idempotence", true);
		properties.putIfAbsent("client.id", "sawmill-dlt");
		return new KafkaDeadLetterPublisher(
				new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer()), config);
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
		throw new DeadLetterPublishException("could not publish " + deadLetters.size() + " dead letters after "
				+ config.maxAttempts() + " attempts", last);
	}

	private void sendAll(List<DeadLetter> deadLetters)
			throws InterruptedException, ExecutionException, TimeoutException {
		List<Future<RecordMetadata>> sent = new ArrayList<>(deadLetters.size());
		for (DeadLetter deadLetter : deadLetters) {
			sent.add(producer.send(toRecord(deadLetter)));
		}
		producer.flush();
		long deadline = System.nanoTime() + config.sendTimeout().toNanos();
		for (Future<RecordMetadata> future : sent) {
			future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
	}

	ProducerRecord<byte[], byte[]> toRecord(DeadLetter deadLetter) {
		ConsumerRecord<byte[], byte[]> original = deadLetter.record();
		RecordHeaders headers = new RecordHeaders();
		for (Header header : original.headers()) {
			headers.add(header);
		}
		headers.add(KafkaHeaders.DLT_ORIGINAL_TOPIC, utf8(original.topic()));
		headers.add(KafkaHeaders.DLT_ORIGINAL_PARTITION, ByteBuffer.allocate(4).putInt(original.partition()).array());
		headers.add(KafkaHeaders.DLT_ORIGINAL_OFFSET, ByteBuffer.allocate(8).putLong(original.offset()).array());
		headers.add(KafkaHeaders.DLT_ORIGINAL_TIMESTAMP, ByteBuffer.allocate(8).putLong(original.timestamp()).array());
		headers.add(KafkaHeaders.DLT_ORIGINAL_TIMESTAMP_TYPE, utf8(original.timestampType().toString()));
		Throwable cause = deadLetter.cause();
		headers.add(KafkaHeaders.DLT_EXCEPTION_FQCN, utf8(cause == null ? "" : cause.getClass().getName()));
		headers.add(KafkaHeaders.DLT_EXCEPTION_MESSAGE, utf8(cause == null ? "" : String.valueOf(cause.getMessage())));
		headers.add(REASON_HEADER, utf8(deadLetter.reason()));
		headers.add(VERSION_HEADER, VERSION);
		return new ProducerRecord<>(config.topicFor(original.topic()), null, original.key(), original.value(), headers);
	}

	private static byte[] utf8(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	static String version() {
		try (InputStream in = KafkaDeadLetterPublisher.class.getResourceAsStream("/io/sawmill/sawmill-version.properties")) {
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
		producer.close(java.time.Duration.ofSeconds(5));
	}
}
