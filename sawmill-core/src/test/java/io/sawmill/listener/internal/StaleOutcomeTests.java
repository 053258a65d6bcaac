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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.Acknowledgment;

import io.lettuce.core.FlushMode;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.deadletter.DeadLetter;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.VersionGuard;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.testkit.RedisServerProcess;

/**
 * Records whose version-guarded write found a newer version in a real redis-server:
 * counted {@code stale}, committed, never dead-lettered; and a library Redis lost is
 * loaded again before the retry, so nothing is lost either.
 */
class StaleOutcomeTests {

	private static RedisServerProcess redis;

	private static RedisClient client;

	private static StatefulRedisConnection<String, String> reader;

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final List<DeadLetter> published = new ArrayList<>();

	@SuppressWarnings("unchecked")
	private final Consumer<byte[], byte[]> consumer = mock(Consumer.class);

	{
		given(consumer.assignment()).willReturn(Set.of(new TopicPartition("t", 0)));
	}

	private final String key = "sawmill-stale-test:" + UUID.randomUUID();

	/** Each record's value is its version; all go to one key. */
	private final RecordMapper mapper = record -> {
		String version = new String(record.value(), StandardCharsets.UTF_8);
		return List.of(VersionGuard.upsert(key.getBytes(StandardCharsets.UTF_8), Long.parseLong(version), Duration.ZERO,
				Map.of("v".getBytes(StandardCharsets.UTF_8), record.value())));
	};

	private LettucePipelinedWriter writer;

	@BeforeAll
	static void startRedis() {
		redis = RedisServerProcess.startNew();
		client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		reader = client.connect();
	}

	@AfterAll
	static void stopRedis() {
		reader.close();
		client.shutdown();
		redis.close();
	}

	@AfterEach
	void closeWriter() {
		writer.close();
	}

	private PipelineBatchListener listener() {
		ListenerConfig config = ListenerConfig.custom()
			.topics(List.of("t"))
			.retryMaxAttempts(4)
			.retryBackoff(Duration.ofMillis(1), Duration.ofMillis(1))
			.build();
		writer = new LettucePipelinedWriter(() -> client, PipelineConfig.custom().build(), false,
				List.of(VersionGuard.librarySource()));
		writer.open(1);
		SawmillMetrics metrics = new SawmillMetrics(registry, "g");
		return TestListeners.listener(mapper, config,
				new PerRecordPipeline(writer, config, RedisCircuit.disabled("test"), metrics), published::addAll,
				metrics);
	}

	private static List<ConsumerRecord<byte[], byte[]>> versions(long... versions) {
		List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
		for (int i = 0; i < versions.length; i++) {
			records.add(
					new ConsumerRecord<>("t", 0, i, null, Long.toString(versions[i]).getBytes(StandardCharsets.UTF_8)));
		}
		return records;
	}

	private double count(String outcome) {
		var counter = registry.find("sawmill.records").tag("outcome", outcome).counter();
		return counter == null ? 0 : counter.count();
	}

	@Test
	void shouldCountOlderVersionsAsStaleAndCommitThemWithoutDeadLettering() {
		listener().onMessage(versions(5, 3, 7, 7, 6), mock(Acknowledgment.class), consumer);

		assertThat(reader.sync().hget(key, "v")).isEqualTo("7");
		assertThat(count("written")).isEqualTo(3);
		assertThat(count("stale")).isEqualTo(2);
		assertThat(published).isEmpty();
		then(consumer).should().commitSync(anyMap());
	}

	@Test
	void shouldLoadTheLibraryAgainAndRetryWhenRedisLostIt() {
		PipelineBatchListener listener = listener();
		reader.sync().functionFlush(FlushMode.SYNC);

		listener.onMessage(versions(5, 3, 7), mock(Acknowledgment.class), consumer);

		assertThat(reader.sync().hget(key, "v")).isEqualTo("7");
		assertThat(count("written")).isEqualTo(2);
		assertThat(count("stale")).isEqualTo(1);
		assertThat(published).isEmpty();
		then(consumer).should().commitSync(anyMap());
	}

}
