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
package io.sawmill.it.mapping;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import io.sawmill.it.support.Kafka;

/**
 * What the route ITs assert about Kafka: a group's commits caught up, and a dead-letter
 * topic's keys.
 */
final class RouteAssertions {

	private RouteAssertions() {
	}

	/**
	 * Waits until {@code group} has committed the end offset of every partition of
	 * {@code partitions} (topic → count).
	 */
	static void awaitCommitted(String bootstrapServers, String group, Map<String, Integer> partitions)
			throws Exception {
		try (Admin admin = Kafka.admin(bootstrapServers)) {
			Map<TopicPartition, Long> end = new HashMap<>();
			for (Map.Entry<String, Integer> topic : partitions.entrySet()) {
				end.putAll(Kafka.endOffsets(admin, topic.getKey(), topic.getValue()));
			}
			await().atMost(Duration.ofMinutes(2))
				.pollInterval(Duration.ofMillis(300))
				.untilAsserted(() -> assertThat(Kafka.committedOffsets(admin, group)).isEqualTo(end));
		}
	}

	/** The dead-letter topic holds exactly records of these keys, in this order. */
	static void assertDeadLetters(String bootstrapServers, String topic, String... keys) {
		List<ConsumerRecord<byte[], byte[]>> letters = Kafka.readAll(bootstrapServers, topic, keys.length);
		assertThat(letters).extracting(letter -> new String(letter.key(), UTF_8)).containsExactly(keys);
	}

}
