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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.support.KafkaHeaders;

import io.sawmill.deadletter.internal.KafkaDeadLetterPublisher;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisVerifier;

/**
 * Scenario 10: 2 MB records on a source topic that allows 3 MB (the broker's default is 1
 * MB), next to ordinary poison and good records, with {@code sawmill.max-record-size} at
 * its default 1 MB. The oversized records are dead-lettered whole when Sawmill created
 * the dead-letter topic (sized from the source topic), and without their value, marked,
 * when the dead-letter topic was created beforehand with 1 MB; a compressed record larger
 * than its topic allows uncompressed is refused by the dead-letter producer's own size
 * check and dead-lettered without its value too. Either way no partition stalls:
 * everything is committed.
 */
class OversizedDeadLetterIT {

	private static final int PARTITIONS = 2;

	private static final int SOURCE_MAX_MESSAGE_BYTES = 3 * 1024 * 1024;

	private static final int HUGE = 2 * 1024 * 1024;

	private static final VersionedEvents GOOD = new VersionedEvents(4_000, 1_000);

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic("unused", 1);

	@Test
	void shouldDeadLetterTwoMegabyteRecordsWholeInADeadLetterTopicSawmillCreatedFromTheSourceTopic() throws Exception {
		String topic = "big";
		try (Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			createSourceTopic(admin, topic);

			Map<String, ConsumerRecord<byte[], byte[]>> dead = drainPoisonMix(admin, topic);

			assertThat(maxMessageBytes(admin, topic + ".DLT")).as("source max.message.bytes + 64 KiB for the headers")
				.isEqualTo(SOURCE_MAX_MESSAGE_BYTES + 64 * 1024);
			for (String huge : List.of("huge-1", "huge-2")) {
				ConsumerRecord<byte[], byte[]> record = dead.get(huge);
				assertThat(header(record, KafkaDeadLetterPublisher.REASON_HEADER))
					.contains("exceeds sawmill.max-record-size");
				assertThat(record.value()).as("the whole value: the dead-letter topic takes it")
					.isEqualTo(hugeValue(huge));
				assertThat(record.headers().lastHeader(KafkaDeadLetterPublisher.VALUE_DROPPED_HEADER)).isNull();
			}
		}
	}

	@Test
	void shouldDeadLetterTwoMegabyteRecordsWithoutTheirValueMarkedWhenTheExistingDeadLetterTopicTakesOneMegabyte()
			throws Exception {
		String topic = "big-small-dlt";
		try (Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			createSourceTopic(admin, topic);
			// created by someone else, with the broker's default limit
			admin.createTopics(List.of(new NewTopic(topic + ".DLT", PARTITIONS, (short) 1)
				.configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "1048588")))).all().get(30, TimeUnit.SECONDS);

			Map<String, ConsumerRecord<byte[], byte[]>> dead = drainPoisonMix(admin, topic);

			List<ConsumerRecord<byte[], byte[]>> source = Kafka.readAll(servers.kafka().bootstrapServers(), topic,
					GOOD.records() + 4);
			for (String huge : List.of("huge-1", "huge-2")) {
				ConsumerRecord<byte[], byte[]> record = dead.get(huge);
				assertThat(record.value()).as("the value does not fit in 1 MB: dropped").isNull();
				assertThat(header(record, KafkaDeadLetterPublisher.VALUE_DROPPED_HEADER))
					.startsWith("value of " + hugeValue(huge).length
							+ " bytes dropped: the dead letter was too large for the " + "dead-letter topic");
				assertThat(header(record, KafkaDeadLetterPublisher.REASON_HEADER))
					.contains("exceeds sawmill.max-record-size");
				assertThat(header(record, "trace-id")).as("the original headers are kept").isEqualTo(huge);
				// found by its coordinates in the source topic, whole
				int partition = ByteBuffer
					.wrap(record.headers().lastHeader(KafkaHeaders.DLT_ORIGINAL_PARTITION).value())
					.getInt();
				long offset = ByteBuffer.wrap(record.headers().lastHeader(KafkaHeaders.DLT_ORIGINAL_OFFSET).value())
					.getLong();
				ConsumerRecord<byte[], byte[]> original = source.stream()
					.filter(r -> r.partition() == partition && r.offset() == offset)
					.findFirst()
					.orElseThrow();
				assertThat(original.key()).isEqualTo(utf8(huge));
				assertThat(original.value()).isEqualTo(hugeValue(huge));
			}
		}
	}

	@Test
	// the try keeps Sawmill running for its body, which never calls it
	@SuppressWarnings("try")
	void shouldDeadLetterACompressedRecordLargerThanTheSourceTopicAllowsWithoutItsValueMarked() throws Exception {
		// a 3 MB value that lz4 shrinks far below the source topic's 1 MB limit: the
		// topic holds it, and the dead-letter producer's own size check (it counts the
		// uncompressed size) refuses it
		String topic = "compressed";
		byte[] compressible = utf8("{\"userId\":\"zip\",\"blob\":\"" + "z".repeat(3 * 1024 * 1024) + "\"}");
		try (Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
			Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
					servers.kafka().bootstrapServers(), ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4",
					ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 8 * 1024 * 1024);
			try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
					new ByteArraySerializer())) {
				producer.send(new ProducerRecord<>(topic, utf8("zip"), compressible)).get(30, TimeUnit.SECONDS);
			}
			String bootstrap = servers.kafka().bootstrapServers();
			try (ConfigurableApplicationContext app = SawmillApp
				.run(SawmillApp.baseProperties(servers, topic, "zip"))) {
				Map<TopicPartition, Long> end = Kafka.endOffsets(admin, topic, 1);
				await().atMost(Duration.ofMinutes(2)).until(() -> Kafka.committedOffsets(admin, "zip").equals(end));
			}

			List<ConsumerRecord<byte[], byte[]>> dead = Kafka.readAll(bootstrap, topic + ".DLT", 1);
			assertThat(dead).singleElement().satisfies(record -> {
				assertThat(record.value()).isNull();
				assertThat(header(record, KafkaDeadLetterPublisher.VALUE_DROPPED_HEADER))
					.startsWith("value of " + compressible.length + " bytes dropped");
				assertThat(header(record, KafkaDeadLetterPublisher.REASON_HEADER))
					.contains("exceeds sawmill.max-record-size");
			});
		}
	}

	/**
	 * Runs Sawmill on a mix of good records, two 2 MB records, invalid JSON and a record
	 * without its key field; asserts every partition committed to its end, every good
	 * record in Redis, and the dead-letter topic holding exactly the four poison records
	 * with their reasons.
	 * @return the dead letters by key
	 */
	// the try keeps Sawmill running for its body, which never calls it
	@SuppressWarnings("try")
	private static Map<String, ConsumerRecord<byte[], byte[]>> drainPoisonMix(Admin admin, String topic)
			throws Exception {
		assertThat(servers.redis().command("FLUSHALL")).isEqualTo("+OK");
		String bootstrap = servers.kafka().bootstrapServers();
		Map<String, Object> properties = SawmillApp.baseProperties(servers, topic, topic + "-group");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties)) {
			GOOD.produce(bootstrap, topic, 0, GOOD.records() / 2);
			Kafka.produceOne(bootstrap, topic, utf8("huge-1"), hugeValue("huge-1"), "trace-id", utf8("huge-1"));
			Kafka.produceOne(bootstrap, topic, utf8("bad-json"), utf8("{\"userId\": \"x\", oops"));
			Kafka.produceOne(bootstrap, topic, utf8("huge-2"), hugeValue("huge-2"), "trace-id", utf8("huge-2"));
			Kafka.produceOne(bootstrap, topic, utf8("no-key"), utf8("{\"name\":\"has no userId\"}"));
			GOOD.produce(bootstrap, topic, GOOD.records() / 2, GOOD.records());

			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, topic, PARTITIONS);
			await().atMost(Duration.ofMinutes(3))
				.until(() -> Kafka.committedOffsets(admin, topic + "-group").equals(end));

			RedisVerifier.Result result = GOOD.verify(servers.redis().host(), servers.redis().port(),
					Duration.ofHours(1));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
			assertThat(servers.redis().command("EXISTS", "user:huge-1")).isEqualTo(":0");
			List<ConsumerRecord<byte[], byte[]>> dead = Kafka.readAll(bootstrap, topic + ".DLT", 4);
			Map<String, ConsumerRecord<byte[], byte[]>> byKey = dead.stream()
				.collect(Collectors.toMap(r -> new String(r.key(), StandardCharsets.UTF_8), Function.identity()));
			assertThat(byKey).containsOnlyKeys("huge-1", "huge-2", "bad-json", "no-key");
			assertThat(header(byKey.get("bad-json"), KafkaDeadLetterPublisher.REASON_HEADER))
				.startsWith("value is not valid JSON");
			assertThat(header(byKey.get("no-key"), KafkaDeadLetterPublisher.REASON_HEADER))
				.isEqualTo("key field 'userId' is missing, null or empty");
			for (ConsumerRecord<byte[], byte[]> record : dead) {
				assertThat(header(record, KafkaHeaders.DLT_ORIGINAL_TOPIC)).isEqualTo(topic);
			}
			return byKey;
		}
	}

	private static void createSourceTopic(Admin admin, String topic) throws Exception {
		admin
			.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1)
				.configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(SOURCE_MAX_MESSAGE_BYTES)))))
			.all()
			.get(30, TimeUnit.SECONDS);
	}

	private static int maxMessageBytes(Admin admin, String topic) throws Exception {
		ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
		return Integer.parseInt(admin.describeConfigs(List.of(resource))
			.all()
			.get(30, TimeUnit.SECONDS)
			.get(resource)
			.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG)
			.value());
	}

	/** A valid event of 2 MB: dead-lettered for its size, not for its content. */
	private static byte[] hugeValue(String userId) {
		String head = "{\"userId\":\"" + userId + "\",\"blob\":\"";
		char[] blob = new char[HUGE - head.length() - 2];
		Arrays.fill(blob, (char) ('a' + userId.length() % 26));
		return utf8(head + new String(blob) + "\"}");
	}

	private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
		Header header = record.headers().lastHeader(name);
		return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
	}

	private static byte[] utf8(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

}
