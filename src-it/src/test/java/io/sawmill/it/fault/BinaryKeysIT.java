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
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.deadletter.internal.KafkaDeadLetterPublisher;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.mapping.KeyEncoding;

/**
 * Binary Kafka keys through {@code {@key}}: 1,000 keys from Kafka's
 * {@code LongSerializer} (0..999) and 1,000 random 16-byte keys, once per
 * {@code sawmill.mapping.key-encoding}. No two Kafka keys may end up in one Redis key:
 * with HEX and BASE64 every record has its own Redis key; with UTF8 the keys that are
 * valid UTF-8 are written as they are and the others are dead-lettered with their reason.
 * Every offset is committed.
 */
class BinaryKeysIT {

	private static final int PARTITIONS = 3;

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic("keys-utf8", PARTITIONS)
		.andTopic("keys-hex", PARTITIONS)
		.andTopic("keys-base64", PARTITIONS);

	@ParameterizedTest
	@EnumSource(KeyEncoding.class)
	void shouldNeverMergeTwoKafkaKeysIntoOneRedisKey(KeyEncoding encoding) throws Exception {
		String topic = "keys-" + encoding.name().toLowerCase();
		Map<ByteBuffer, Integer> records = binaryKeys();
		assertThat(servers.redis().command("FLUSHALL")).isEqualTo("+OK");
		Map<String, Object> properties = SawmillApp.baseProperties(servers, topic, topic);
		properties.put("sawmill.mapping.key-template", "k:{@key}");
		properties.put("sawmill.mapping.key-encoding", encoding.name());
		// with UTF8 three quarters of the records are dead-lettered on purpose, more than
		// the dead-letter brake lets through (docs/reliability.md#the-dead-letter-brake)
		properties.put("sawmill.dead-letter.brake.enabled", false);

		try (ConfigurableApplicationContext app = SawmillApp.run(properties);
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			produce(topic, records);
			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, topic, PARTITIONS);
			assertThat(Kafka.sum(end)).isEqualTo(2_000);
			await().atMost(Duration.ofMinutes(2)).until(() -> Kafka.committedOffsets(admin, topic).equals(end));

			Map<ByteBuffer, Integer> written = new HashMap<>();
			Set<ByteBuffer> deadLettered = new HashSet<>();
			records.forEach((key, n) -> {
				if (encoding != KeyEncoding.UTF8 || isUtf8(key)) {
					written.put(ByteBuffer.wrap(redisKey(encoding, key.array())), n);
				}
				else {
					deadLettered.add(key);
				}
			});
			if (encoding == KeyEncoding.UTF8) {
				// LongSerializer: 0..127, 256..383, 512..639 and 768..895 are valid UTF-8
				// (every byte below 0x80)
				assertThat(written).hasSizeGreaterThanOrEqualTo(512).hasSizeLessThan(1_000);
			}
			else {
				assertThat(written).hasSize(2_000);
			}
			assertThat(redisHashes()).isEqualTo(written);

			List<ConsumerRecord<byte[], byte[]>> dead = Kafka.readAll(servers.kafka().bootstrapServers(),
					topic + ".DLT", deadLettered.size());
			assertThat(dead.stream().map(r -> ByteBuffer.wrap(r.key())).collect(Collectors.toSet()))
				.isEqualTo(deadLettered);
			assertThat(dead).hasSize(deadLettered.size())
				.allSatisfy(r -> assertThat(new String(
						r.headers().lastHeader(KafkaDeadLetterPublisher.REASON_HEADER).value(), StandardCharsets.UTF_8))
					.startsWith("the Kafka key is not valid UTF-8 (byte 0x")
					.contains("HEX or BASE64"));
			assertThat(app.getBean(MeterRegistry.class)
				.find("sawmill.records")
				.tag("outcome", "dead_lettered")
				.counters()
				.stream()
				.mapToDouble(Counter::count)
				.sum()).isEqualTo(deadLettered.size());
		}
	}

	/** 2,000 distinct Kafka keys, each with its record's number. */
	private static Map<ByteBuffer, Integer> binaryKeys() {
		Map<ByteBuffer, Integer> keys = new LinkedHashMap<>();
		try (LongSerializer longs = new LongSerializer()) {
			for (long id = 0; id < 1_000; id++) {
				keys.put(ByteBuffer.wrap(longs.serialize("t", id)), keys.size());
			}
		}
		Random random = new Random(22);
		while (keys.size() < 2_000) {
			byte[] key = new byte[16];
			random.nextBytes(key);
			keys.putIfAbsent(ByteBuffer.wrap(key), keys.size());
		}
		return keys;
	}

	private static void produce(String topic, Map<ByteBuffer, Integer> records) throws Exception {
		Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers.kafka().bootstrapServers(),
				ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 5);
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
				new ByteArraySerializer())) {
			for (Map.Entry<ByteBuffer, Integer> record : records.entrySet()) {
				producer.send(new ProducerRecord<>(topic, record.getKey().array(),
						("{\"n\":" + record.getValue() + "}").getBytes(StandardCharsets.UTF_8)));
			}
			producer.flush();
		}
	}

	/**
	 * The Redis key as the encoding's documented format gives it, computed here with the
	 * JDK alone.
	 */
	private static byte[] redisKey(KeyEncoding encoding, byte[] kafkaKey) {
		byte[] text = switch (encoding) {
			case UTF8 -> kafkaKey;
			case HEX -> java.util.HexFormat.of().formatHex(kafkaKey).getBytes(StandardCharsets.US_ASCII);
			case BASE64 -> Base64.getUrlEncoder().withoutPadding().encode(kafkaKey);
		};
		byte[] key = new byte[2 + text.length];
		key[0] = 'k';
		key[1] = ':';
		System.arraycopy(text, 0, key, 2, text.length);
		return key;
	}

	private static boolean isUtf8(ByteBuffer key) {
		try {
			StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(key.duplicate());
			return true;
		}
		catch (CharacterCodingException ex) {
			return false;
		}
	}

	/** Every key in Redis with the number its hash holds. */
	private static Map<ByteBuffer, Integer> redisHashes() {
		RedisClient client = RedisClient.create(RedisURI.create(servers.redis().host(), servers.redis().port()));
		try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
			Map<ByteBuffer, Integer> hashes = new HashMap<>();
			for (byte[] key : connection.sync().keys("*")) {
				byte[] n = connection.sync().hget(key, "n".getBytes(StandardCharsets.US_ASCII));
				hashes.put(ByteBuffer.wrap(key),
						n == null ? -1 : Integer.parseInt(new String(n, StandardCharsets.US_ASCII)));
			}
			return hashes;
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

}
