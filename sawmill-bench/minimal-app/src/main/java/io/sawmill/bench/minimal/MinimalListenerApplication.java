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
package io.sawmill.bench.minimal;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.kafka.annotation.KafkaListener;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a user would write by hand instead of Sawmill: one Spring Kafka batch listener
 * that writes each JSON record's top-level fields to the Redis hash
 * {@code user:<userId>}, the batch in one pipeline, its offsets committed by the
 * container after the listener returns. Reads the topic and group from the same
 * {@code sawmill.topics} and {@code sawmill.group-id} properties StartupTime gives the
 * service.
 */
@SpringBootApplication
public class MinimalListenerApplication {

	private final StringRedisTemplate redis;

	private final JsonMapper json;

	MinimalListenerApplication(StringRedisTemplate redis, JsonMapper json) {
		this.redis = redis;
		this.json = json;
	}

	public static void main(String[] args) {
		SpringApplication.run(MinimalListenerApplication.class, args);
	}

	@KafkaListener(topics = "${sawmill.topics}", groupId = "${sawmill.group-id}")
	void write(List<ConsumerRecord<String, byte[]>> records) {
		redis.executePipelined((RedisCallback<Object>) connection -> {
			for (ConsumerRecord<String, byte[]> record : records) {
				JsonNode event = json.readTree(record.value());
				Map<byte[], byte[]> hash = new HashMap<>();
				event.properties()
					.stream()
					.filter(field -> !field.getValue().isNull())
					.forEach(field -> hash.put(bytes(field.getKey()), bytes(field.getValue().isValueNode()
							? field.getValue().asString() : field.getValue().toString())));
				connection.hashCommands().hMSet(bytes("user:" + event.get("userId").asString()), hash);
			}
			return null;
		});
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
