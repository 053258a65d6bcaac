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
package io.sawmill.listener.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyMap;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.mock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.Acknowledgment;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.mapping.json.JsonHashMapper;
import io.sawmill.mapping.json.JsonHashMapperConfig;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.testkit.RedisServerProcess;

/**
 * Per key, writes are applied in offset order — including a tombstone between two writes
 * of the same key in one batch (a peer connector runs all deletes before all writes;
 * Sawmill must not). Against a real redis-server.
 */
class PerKeyOrderTests {

	private static RedisServerProcess redis;

	private static RedisClient client;

	private static StatefulRedisConnection<String, String> reader;

	@BeforeAll
	static void startRedis() {
		redis = RedisServerProcess.startNew();
		client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		reader = client.connect();
	}

	@AfterAll
	static void stopRedis() {
		reader.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		redis.close();
	}

	@Test
	void shouldApplyATombstoneBetweenTwoWritesOfTheSameKeyInOffsetOrder() {
		ListenerConfig config = ListenerConfig.custom().topics(List.of("t")).build();
		SawmillMetrics metrics = new SawmillMetrics(new SimpleMeterRegistry(), "g");
		JsonHashMapper mapper = JsonHashMapper.of(JsonHashMapperConfig.custom().keyTemplate("order:{@key}").build());
		Acknowledgment acknowledgment = mock(Acknowledgment.class);
		@SuppressWarnings("unchecked")
		Consumer<byte[], byte[]> consumer = mock(Consumer.class);
		given(consumer.assignment()).willReturn(Set.of(new TopicPartition("t", 0)));
		try (LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> client, PipelineConfig.ofDefaults())) {
			PipelineBatchListener listener = TestListeners.listener(mapper, config,
					new PerRecordPipeline(writer, config, RedisCircuit.disabled("t"), metrics),
					DeadLetterPublisher.loggingOnly(), metrics);

			listener.onMessage(
					List.of(record(0, "a", "{\"v\":\"1\",\"old\":\"x\"}"), record(1, "a", null),
							record(2, "a", "{\"v\":\"2\"}"), record(3, "b", "{\"v\":\"1\"}"), record(4, "b", null)),
					acknowledgment, consumer);
		}

		// DEL between the writes: the old field is gone, the last write holds
		assertThat(reader.sync().hgetall("order:a")).isEqualTo(Map.of("v", "2"));
		// a tombstone after the write deletes the key
		assertThat(reader.sync().exists("order:b")).isZero();
		then(consumer).should().commitSync(anyMap());
	}

	private static ConsumerRecord<byte[], byte[]> record(long offset, String key, String json) {
		return new ConsumerRecord<>("t", 0, offset, key.getBytes(StandardCharsets.UTF_8),
				json == null ? null : json.getBytes(StandardCharsets.UTF_8));
	}

}
