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
package io.sawmill.bench.e2e.run;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.sawmill.bench.e2e.measure.BatchRecorder;

/**
 * Strategy 2, "the common pipelined approach": a plain consumer loop — poll a batch,
 * parse each JSON value, {@code StringRedisTemplate.executePipelined} with an HSET and an
 * EXPIRE per record, then {@code commitSync}. The batch's write is the
 * {@code executePipelined} call (the values are parsed before it, as Sawmill maps a batch
 * before it sends it). The connection factory has Spring Data Redis' defaults (a shared
 * native connection, no pool, flush after every command), as
 * {@code spring.data.redis.host/port} alone would give. One consumer thread, like
 * Sawmill's default concurrency of 1.
 */
public final class TemplateLoop implements AutoCloseable {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final LettuceConnectionFactory factory;

	private final StringRedisTemplate template;

	private final KafkaConsumer<byte[], byte[]> consumer;

	private final BatchRecorder recorder;

	private final long ttlSeconds;

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final Thread thread;

	private volatile Throwable failure;

	public TemplateLoop(String bootstrapServers, String topic, String group, int batchSize, String redisHost,
			int redisPort, Duration ttl, BatchRecorder recorder) {
		this.factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(redisHost, redisPort));
		this.factory.afterPropertiesSet();
		this.factory.start();
		this.template = new StringRedisTemplate(factory);
		this.ttlSeconds = ttl.toSeconds();
		this.recorder = recorder;
		this.consumer = new KafkaConsumer<>(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ConsumerConfig.GROUP_ID_CONFIG, group,
						ConsumerConfig.MAX_POLL_RECORDS_CONFIG, batchSize, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
						false, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
				new ByteArrayDeserializer(), new ByteArrayDeserializer());
		this.consumer.subscribe(List.of(topic));
		this.thread = new Thread(this::loop, "template-loop");
		this.thread.start();
	}

	private void loop() {
		try {
			while (running.get()) {
				ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
				if (records.isEmpty()) {
					continue;
				}
				long polled = System.nanoTime();
				List<byte[]> keys = new ArrayList<>(records.count());
				List<Map<byte[], byte[]>> hashes = new ArrayList<>(records.count());
				for (ConsumerRecord<byte[], byte[]> record : records) {
					JsonNode json = JSON.readTree(record.value());
					Map<byte[], byte[]> fields = new LinkedHashMap<>();
					json.properties()
						.forEach(field -> fields.put(utf8(field.getKey()), utf8(field.getValue().asString())));
					keys.add(utf8("rec:" + json.get("id").asString()));
					hashes.add(fields);
				}
				long writing = System.nanoTime();
				template.executePipelined((RedisCallback<Object>) connection -> {
					for (int i = 0; i < keys.size(); i++) {
						connection.hashCommands().hMSet(keys.get(i), hashes.get(i));
						connection.keyCommands().expire(keys.get(i), ttlSeconds);
					}
					return null;
				});
				recorder.recordWrite(System.nanoTime() - writing);
				consumer.commitSync();
				long done = System.nanoTime();
				recorder.record(done, done - polled, records.count());
			}
		}
		catch (Throwable ex) {
			failure = ex;
		}
		finally {
			consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
		}
	}

	private static byte[] utf8(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	/** The error that stopped the loop, if any. */
	public Throwable failure() {
		return failure;
	}

	@Override
	public void close() {
		running.set(false);
		try {
			thread.join(30_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		factory.destroy();
	}

}
