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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.KafkaHeaders;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.deadletter.DeadLetterPublishException;

class KafkaDeadLetterPublisherTests {

	@Test
	void shouldPublishADeadLetterThatFitsWithItsValueAndNoDroppedMark() {
		SizeLimitedProducer producer = new SizeLimitedProducer(10_000);
		KafkaDeadLetterPublisher publisher = new KafkaDeadLetterPublisher(producer, DeadLetterConfig.ofDefaults());

		publisher.publish(List.of(deadLetter(7, new byte[5_000], 0)));

		ProducerRecord<byte[], byte[]> sent = producer.history().get(0);
		assertThat(sent.topic()).isEqualTo("orders.DLT");
		assertThat(sent.value()).hasSize(5_000);
		assertThat(sent.headers().lastHeader(KafkaDeadLetterPublisher.VALUE_DROPPED_HEADER)).isNull();
	}

	@Test
	void shouldPublishADeadLetterTooLargeForTheTopicWithoutItsValueMarkedWithWhyAndItsOriginalCoordinates() {
		SizeLimitedProducer producer = new SizeLimitedProducer(10_000);
		KafkaDeadLetterPublisher publisher = new KafkaDeadLetterPublisher(producer, DeadLetterConfig.ofDefaults());

		publisher.publish(List.of(deadLetter(7, new byte[2_000_000], 0), deadLetter(8, new byte[10], 0)));

		List<ProducerRecord<byte[], byte[]>> published = producer.history();
		assertThat(published).hasSize(2);
		ProducerRecord<byte[], byte[]> small = published.get(0);
		assertThat(small.value()).hasSize(10);
		ProducerRecord<byte[], byte[]> dropped = published.get(1);
		assertThat(dropped.value()).isNull();
		assertThat(dropped.key()).isEqualTo(utf8("key-7"));
		assertThat(text(dropped, KafkaDeadLetterPublisher.VALUE_DROPPED_HEADER))
			.startsWith("value of 2000000 bytes dropped: the dead letter was too large for the dead-letter topic (")
			.contains("larger than 10000");
		assertThat(text(dropped, KafkaDeadLetterPublisher.REASON_HEADER)).isEqualTo("exceeds sawmill.max-record-size");
		assertThat(text(dropped, KafkaHeaders.DLT_ORIGINAL_TOPIC)).isEqualTo("orders");
		assertThat(ByteBuffer.wrap(dropped.headers().lastHeader(KafkaHeaders.DLT_ORIGINAL_PARTITION).value()).getInt())
			.isEqualTo(2);
		assertThat(ByteBuffer.wrap(dropped.headers().lastHeader(KafkaHeaders.DLT_ORIGINAL_OFFSET).value()).getLong())
			.isEqualTo(7);
		assertThat(text(dropped, "trace-id")).as("the original headers are kept").isEqualTo("t-7");
	}

	@Test
	void shouldFallBackToCoordinatesAndReasonWhenEvenTheKeyOrHeadersAreTooLarge() {
		SizeLimitedProducer producer = new SizeLimitedProducer(10_000);
		KafkaDeadLetterPublisher publisher = new KafkaDeadLetterPublisher(producer, DeadLetterConfig.ofDefaults());

		publisher.publish(List.of(deadLetter(9, new byte[50_000], 20_000)));

		ProducerRecord<byte[], byte[]> last = producer.history().get(0);
		assertThat(last.key()).isNull();
		assertThat(last.value()).isNull();
		assertThat(last.headers().lastHeader("trace-id")).isNull();
		assertThat(text(last, KafkaDeadLetterPublisher.VALUE_DROPPED_HEADER))
			.startsWith("value of 50000 bytes, key of 20005 bytes and the original headers dropped");
		assertThat(ByteBuffer.wrap(last.headers().lastHeader(KafkaHeaders.DLT_ORIGINAL_OFFSET).value()).getLong())
			.isEqualTo(9);
	}

	@Test
	void shouldStillFailOnAnythingButSize() {
		MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(),
				new ByteArraySerializer());
		producer.sendException = new org.apache.kafka.common.errors.TopicAuthorizationException("orders.DLT");
		KafkaDeadLetterPublisher publisher = new KafkaDeadLetterPublisher(producer,
				DeadLetterConfig.custom().maxAttempts(2).build());

		assertThatExceptionOfType(DeadLetterPublishException.class)
			.isThrownBy(() -> publisher.publish(List.of(deadLetter(1, new byte[1], 0))))
			.withMessage("could not publish 1 dead letters after 2 attempts");
	}

	private static DeadLetter deadLetter(long offset, byte[] value, int extraKeyBytes) {
		ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("orders", 2, offset,
				utf8("key-" + offset + "x".repeat(extraKeyBytes)), value);
		record.headers().add("trace-id", utf8("t-" + offset));
		return new DeadLetter(record, "exceeds sawmill.max-record-size", null);
	}

	private static String text(ProducerRecord<byte[], byte[]> record, String header) {
		Header last = record.headers().lastHeader(header);
		return last == null ? null : new String(last.value(), StandardCharsets.UTF_8);
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Refuses records whose key, value and headers exceed a limit, as the producer's size
	 * check and a broker do.
	 */
	private static final class SizeLimitedProducer extends MockProducer<byte[], byte[]> {

		private final int limit;

		SizeLimitedProducer(int limit) {
			super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
			this.limit = limit;
		}

		@Override
		public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
			int size = (record.key() == null ? 0 : record.key().length)
					+ (record.value() == null ? 0 : record.value().length);
			for (Header header : record.headers()) {
				size += header.key().length() + (header.value() == null ? 0 : header.value().length);
			}
			if (size > limit) {
				return CompletableFuture.failedFuture(new RecordTooLargeException(
						"The message is " + size + " bytes when serialized which is larger than " + limit));
			}
			return super.send(record, callback);
		}

	}

}
