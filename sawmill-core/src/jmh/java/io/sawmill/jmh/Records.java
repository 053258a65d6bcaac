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
package io.sawmill.jmh;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.sawmill.mapping.json.JsonHashMapper;
import io.sawmill.mapping.json.JsonHashMapperConfig;
import io.sawmill.mapping.route.RedisType;
import io.sawmill.mapping.route.internal.RouteConfig;
import io.sawmill.mapping.route.internal.Routes;

/** The end-to-end workload's record shape: id + 5 fields of 20 ASCII bytes. */
public final class Records {

	private static final String TOPIC = "events";

	private Records() {
	}

	/** The mapping of the end-to-end benchmark: key {@code rec:{id}}, every field, a TTL of one hour. */
	public static JsonHashMapper mapper() {
		return JsonHashMapper.of(JsonHashMapperConfig.custom().keyTemplate("rec:{id}").ttl(Duration.ofHours(1)).build());
	}

	/**
	 * The same mapping as a declarative route ({@code sawmill.routes[0]}, type HASH) over the topic
	 * of {@link #batch}, as the end-to-end benchmark's {@code --routes=hash} configures it.
	 */
	public static Routes hashRoute() {
		return Routes.of(List.of(RouteConfig.custom("hash")
			.topics(List.of(TOPIC))
			.type(RedisType.HASH)
			.keyTemplate("rec:{id}")
			.ttl(Duration.ofHours(1))
			.build()));
	}

	/** A polled batch of {@code size} records with ids 0, 1, 2, … */
	public static List<ConsumerRecord<byte[], byte[]>> batch(int size) {
		List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>(size);
		for (int i = 0; i < size; i++) {
			batch.add(new ConsumerRecord<>(TOPIC, 0, i, Long.toString(i).getBytes(StandardCharsets.US_ASCII), json(i)));
		}
		return batch;
	}

	public static byte[] json(long id) {
		StringBuilder json = new StringBuilder("{\"id\":\"").append(id).append('"');
		for (int f = 1; f <= 5; f++) {
			json.append(",\"f").append(f).append("\":\"").append(value(id, f)).append('"');
		}
		return json.append('}').toString().getBytes(StandardCharsets.US_ASCII);
	}

	static String value(long id, int field) {
		String hex = Long.toHexString((id * 0x9E3779B97F4A7C15L) ^ field | Long.MIN_VALUE);
		return (hex + hex).substring(0, 20);
	}
}
