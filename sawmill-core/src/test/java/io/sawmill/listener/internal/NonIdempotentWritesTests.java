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
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.testkit.RedisServerProcess;

/**
 * Against a real redis-server: a batch whose writes may not be repeated is never partly
 * sent again by the in-batch retry, while a batch of idempotent writes keeps the
 * per-record retry. The transient failure is real: the writer's ACL user may not touch
 * {@code deny:*} keys, and Redis answers NOPERM (transient: a configuration problem,
 * never the record's fault).
 */
class NonIdempotentWritesTests {

	private static final int MAX_ATTEMPTS = 3;

	private static RedisServerProcess redis;

	private static RedisClient admin;

	private static RedisClient writerClient;

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final SawmillMetrics metrics = new SawmillMetrics(registry, "g1");

	private LettucePipelinedWriter writer;

	private PerRecordPipeline pipeline;

	private String prefix;

	@BeforeAll
	static void startRedis() {
		redis = RedisServerProcess.startNew();
		admin = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		try (StatefulRedisConnection<String, String> connection = admin.connect()) {
			connection.sync()
				.aclSetuser("writer",
						io.lettuce.core.AclSetuserArgs.Builder.on()
							.addPassword("secret")
							.keyPattern("ok:*")
							.allCommands());
		}
		writerClient = RedisClient.create(RedisURI.builder()
			.withHost(redis.host())
			.withPort(redis.port())
			.withAuthentication("writer", "secret")
			.build());
	}

	@AfterAll
	static void stopRedis() {
		writerClient.shutdown();
		admin.shutdown();
		redis.close();
	}

	@BeforeEach
	void pipeline() {
		prefix = UUID.randomUUID() + ":";
		ListenerConfig config = ListenerConfig.custom()
			.topics(List.of("t"))
			.retryMaxAttempts(MAX_ATTEMPTS)
			.retryBackoff(Duration.ofMillis(1), Duration.ofMillis(1))
			.build();
		writer = new LettucePipelinedWriter(() -> writerClient,
				PipelineConfig.custom().timeout(Duration.ofSeconds(10)).build());
		pipeline = new PerRecordPipeline(writer, config, RedisCircuit.disabled("test"), metrics);
	}

	@AfterEach
	void closeWriter() {
		writer.close();
	}

	@Test
	void shouldFailABatchOfNonIdempotentWritesWholeRatherThanSendAnyOfItsRecordsAgain() {
		List<MappedRecord> batch = batch(RedisWrite::command);

		BatchWriteFailedException failure = catchThrowableOfType(BatchWriteFailedException.class,
				() -> pipeline.finish(pipeline.send(batch)));

		assertThat(failure).hasMessageContaining("NOPERM");
		// one round trip: every INCR Redis accepted was applied exactly once
		assertThat(counters()).containsExactly(1L, 1L, 1L, 1L, 1L, 1L);
		assertThat(registry.get("sawmill.redis.pipeline.duration").timer().count()).isEqualTo(1);
		assertThat(registry.get("sawmill.batch.non.idempotent.repeated").counter().count()).isEqualTo(1);
	}

	@Test
	void shouldRetryABatchOfIdempotentWritesRecordByRecord() {
		// INCR declared idempotent, so that the counters show what the retry sent again
		List<MappedRecord> batch = batch(RedisWrite::idempotentCommand);

		catchThrowableOfType(BatchWriteFailedException.class, () -> pipeline.finish(pipeline.send(batch)));

		// the records whose second write failed were sent on every attempt; the others
		// once
		assertThat(counters()).containsExactly(1L, (long) MAX_ATTEMPTS, 1L, (long) MAX_ATTEMPTS, 1L,
				(long) MAX_ATTEMPTS);
		assertThat(registry.get("sawmill.redis.pipeline.duration").timer().count()).isEqualTo(MAX_ATTEMPTS);
		assertThat(registry.get("sawmill.batch.non.idempotent.repeated").counter().count()).isZero();
	}

	@Test
	void shouldWriteABatchOfNonIdempotentWritesOnceWhenNothingFails() {
		List<MappedRecord> batch = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			batch.add(record(i, List.of(RedisWrite.command("INCR", key("ok:" + i)))));
		}

		assertThat(pipeline.finish(pipeline.send(batch)).deadLetters()).isEmpty();

		assertThat(counters()).containsExactly(1L, 1L, 1L, 1L, 1L, 1L);
	}

	/**
	 * Six records, each incrementing its own counter; every odd one also a counter the
	 * writer may not touch.
	 */
	private List<MappedRecord> batch(BiFunction<String, byte[], RedisWrite.Command> command) {
		List<MappedRecord> batch = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			List<RedisWrite> writes = new ArrayList<>();
			writes.add(command.apply("INCR", key("ok:" + i)));
			if (i % 2 == 1) {
				writes.add(command.apply("INCR", key("deny:" + i)));
			}
			batch.add(record(i, writes));
		}
		return batch;
	}

	private List<Long> counters() {
		try (StatefulRedisConnection<String, String> connection = admin.connect()) {
			List<Long> values = new ArrayList<>();
			for (int i = 0; i < 6; i++) {
				String value = connection.sync().get(new String(key("ok:" + i), StandardCharsets.UTF_8));
				values.add(value == null ? 0 : Long.parseLong(value));
			}
			return values;
		}
	}

	private byte[] key(String name) {
		String[] parts = name.split(":", 2);
		return (parts[0] + ":" + prefix + parts[1]).getBytes(StandardCharsets.UTF_8);
	}

	private static MappedRecord record(long offset, List<RedisWrite> writes) {
		return new MappedRecord(new ConsumerRecord<>("t", 0, offset, null, new byte[0]), writes);
	}

}
