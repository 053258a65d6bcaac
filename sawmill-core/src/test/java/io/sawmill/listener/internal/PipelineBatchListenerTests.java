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
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyMap;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willAnswer;
import static org.mockito.Mockito.mock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.Acknowledgment;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.json.JsonHashMapper;
import io.sawmill.mapping.json.JsonHashMapperConfig;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.RedisBatchWriter;

/**
 * The commit decision of one batch: the listener commits the batch's offsets on the
 * consumer, so that must come after Redis acknowledged every write, and never for a batch
 * that was not written.
 */
class PipelineBatchListenerTests {

	private static final int MAX_ATTEMPTS = 3;

	/** What happened, in order: writer attempts and commits. */
	private final List<String> events = new ArrayList<>();

	private final FakeWriter writer = new FakeWriter(events);

	private final Acknowledgment acknowledgment = mock(Acknowledgment.class);

	@SuppressWarnings("unchecked")
	private final Consumer<byte[], byte[]> consumer = mock(Consumer.class);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final RecordMapper mapper = JsonHashMapper
		.of(JsonHashMapperConfig.custom().keyTemplate("user:{id}").build());

	@BeforeEach
	void recordAcknowledgements() {
		willAnswer(invocation -> events.add("acknowledge")).given(consumer).commitSync(anyMap());
		willAnswer(invocation -> events.add("acknowledge async")).given(consumer).commitAsync(anyMap(), any());
		given(consumer.assignment()).willReturn(Set.of(new TopicPartition("users", 0)));
	}

	private PipelineBatchListener listener(RecordMapper mapper) {
		ListenerConfig config = ListenerConfig.custom()
			.topics(List.of("users"))
			.retryMaxAttempts(MAX_ATTEMPTS)
			.retryBackoff(Duration.ofMillis(1), Duration.ofMillis(1))
			.build();
		SawmillMetrics metrics = new SawmillMetrics(registry, config.groupId());
		return TestListeners.listener(mapper, config,
				new PerRecordPipeline(writer, config, RedisCircuit.disabled("test"), metrics),
				DeadLetterPublisher.loggingOnly(), metrics);
	}

	private static ConsumerRecord<byte[], byte[]> record(long offset, String json) {
		return new ConsumerRecord<>("users", 0, offset, null,
				json == null ? null : json.getBytes(StandardCharsets.UTF_8));
	}

	private static List<ConsumerRecord<byte[], byte[]>> batch(int size) {
		List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(size);
		for (int i = 0; i < size; i++) {
			records.add(record(i, "{\"id\":" + i + ",\"name\":\"n" + i + "\"}"));
		}
		return records;
	}

	private double records(String outcome) {
		return registry.get("sawmill.records").tag("outcome", outcome).counter().count();
	}

	private static List<String> keys(List<RedisWrite> writes) {
		return writes.stream().map(write -> new String(write.key(), StandardCharsets.UTF_8)).toList();
	}

	@Test
	void shouldAcknowledgeOnlyAfterTheWholeBatchWasWritten() {
		listener(mapper).onMessage(batch(3), acknowledgment, consumer);

		assertThat(events).containsExactly("write ok", "acknowledge");
		assertThat(writer.batches).singleElement()
			.satisfies(writes -> assertThat(keys(writes)).containsExactly("user:0", "user:1", "user:2"));
		assertThat(records("written")).isEqualTo(3);
	}

	@Test
	void shouldWriteEveryRecordOfTheBatchInOneRoundTrip() {
		listener(mapper).onMessage(batch(500), acknowledgment, consumer);

		assertThat(writer.batches).hasSize(1);
		assertThat(writer.batches.get(0)).hasSize(500);
	}

	@Test
	void shouldAcknowledgeAfterTransientFailuresWithinTheRetryBudget() {
		writer.failNext(MAX_ATTEMPTS - 1);

		listener(mapper).onMessage(batch(2), acknowledgment, consumer);

		assertThat(events).containsExactly("write failed", "write failed", "write ok", "acknowledge");
		// only the record whose write failed is sent again
		assertThat(writer.batches).extracting(List::size).containsExactly(2, 1, 1);
		assertThat(keys(writer.batches.get(2))).containsExactly("user:1");
	}

	@Test
	void shouldNeverAcknowledgeWhenTheWriteKeepsFailing() {
		writer.failNext(Integer.MAX_VALUE);
		PipelineBatchListener listener = listener(mapper);

		assertThatExceptionOfType(BatchWriteFailedException.class)
			.isThrownBy(() -> listener.onMessage(batch(2), acknowledgment, consumer))
			.withMessageContaining("did not acknowledge 1 of 1 commands after " + MAX_ATTEMPTS + " attempts")
			.withMessageContaining("Redis is down");

		assertThat(events).containsExactly("write failed", "write failed", "write failed");
		assertThat(registry.find("sawmill.records").counters()).isEmpty();
	}

	@Test
	void shouldNeverAcknowledgeWhenTheWriterThrows() {
		writer.throwNext(Integer.MAX_VALUE);
		PipelineBatchListener listener = listener(mapper);

		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> listener.onMessage(batch(2), acknowledgment, consumer))
			.withMessageContaining("connection lost");

		assertThat(events).containsExactly("write threw", "write threw", "write threw");
	}

	@Test
	void shouldWriteAndAcknowledgeTheRestOfTheBatchAroundInvalidRecords() {
		List<ConsumerRecord<byte[], byte[]>> records = List.of(record(0, "{\"id\":1}"), record(1, "not json"),
				record(2, "{\"name\":\"no id\"}"), record(3, "[1,2]"), record(4, "{\"id\":5}"));

		listener(mapper).onMessage(records, acknowledgment, consumer);

		assertThat(events).containsExactly("write ok", "acknowledge");
		assertThat(keys(writer.batches.get(0))).containsExactly("user:1", "user:5");
		assertThat(records("written")).isEqualTo(2);
		assertThat(records("invalid")).isEqualTo(3);
	}

	@Test
	void shouldAcknowledgeABatchOfOnlyInvalidRecordsWithoutWriting() {
		listener(mapper).onMessage(List.of(record(0, "oops"), record(1, "{}")), acknowledgment, consumer);

		assertThat(events).containsExactly("acknowledge");
		assertThat(writer.batches).isEmpty();
		assertThat(records("invalid")).isEqualTo(2);
	}

	@Test
	void shouldAcknowledgeRecordsThatMapToNoWrites() {
		RecordMapper skipOdd = record -> record.offset() % 2 == 1 ? List.of()
				: List.of(RedisWrite.del(("k" + record.offset()).getBytes(StandardCharsets.UTF_8)));

		listener(skipOdd).onMessage(List.of(record(0, "a"), record(1, "b"), record(2, "c")), acknowledgment, consumer);

		assertThat(events).containsExactly("write ok", "acknowledge");
		assertThat(keys(writer.batches.get(0))).containsExactly("k0", "k2");
		assertThat(records("written")).isEqualTo(2);
		assertThat(records("skipped")).isEqualTo(1);
	}

	@Test
	void shouldAcknowledgeABatchWhereNoRecordMapsToWrites() {
		listener(record -> List.of()).onMessage(batch(4), acknowledgment, consumer);

		assertThat(events).containsExactly("acknowledge");
		assertThat(writer.batches).isEmpty();
		assertThat(records("skipped")).isEqualTo(4);
	}

	@Test
	void shouldKeepEveryWriteOfARecordInMapperOrder() {
		RecordMapper twoWrites = record -> {
			byte[] key = ("k" + record.offset()).getBytes(StandardCharsets.UTF_8);
			return List.of(RedisWrite.del(key), RedisWrite.expire(key, Duration.ofSeconds(1)));
		};

		listener(twoWrites).onMessage(List.of(record(7, "a"), record(8, "b")), acknowledgment, consumer);

		assertThat(writer.batches.get(0)).extracting(Object::toString)
			.containsExactly("DEL k7", "EXPIRE k7 PT1S", "DEL k8", "EXPIRE k8 PT1S");
	}

	/**
	 * An in-memory writer that records every batch and can be told to fail its next
	 * attempts.
	 */
	static final class FakeWriter implements RedisBatchWriter {

		final List<List<RedisWrite>> batches = new ArrayList<>();

		private final List<String> events;

		private int failuresLeft;

		private int throwsLeft;

		FakeWriter(List<String> events) {
			this.events = events;
		}

		void failNext(int attempts) {
			this.failuresLeft = attempts;
		}

		void throwNext(int attempts) {
			this.throwsLeft = attempts;
		}

		@Override
		public PipelineResult write(List<RedisWrite> writes) {
			batches.add(List.copyOf(writes));
			if (throwsLeft > 0) {
				throwsLeft--;
				events.add("write threw");
				throw new IllegalStateException("connection lost");
			}
			if (failuresLeft > 0) {
				failuresLeft--;
				events.add("write failed");
				return new PipelineResult(writes.size(), 1, List.of(new PipelineResult.Failure(writes.size() - 1,
						writes.get(writes.size() - 1), new IllegalStateException("Redis is down"))));
			}
			events.add("write ok");
			return new PipelineResult(writes.size(), 1, List.of());
		}

		@Override
		public void ping() {
		}

		@Override
		public void close() {
		}

	}

}
