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
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyCollection;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyMap;
import static org.mockito.ArgumentMatchers.anySet;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.BDDMockito.willAnswer;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RecordMappingException;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.RedisBatchWriter;

/**
 * Sawmill's container on a mocked {@link Consumer}, as spring-kafka's own batch error
 * handler tests do: what is committed, and when, relative to the Redis write — without a
 * broker.
 */
class ContainerCommitOrderTests {

	private static final TopicPartition P0 = new TopicPartition("events", 0);

	private static final TopicPartition P1 = new TopicPartition("events", 1);

	private final BlockingQueue<ConsumerRecords<byte[], byte[]>> polls = new LinkedBlockingQueue<>();

	@SuppressWarnings("unchecked")
	private final Consumer<byte[], byte[]> consumer = mock(Consumer.class);

	@SuppressWarnings("unchecked")
	private final ConsumerFactory<byte[], byte[]> consumerFactory = mock(ConsumerFactory.class);

	private final RedisBatchWriter writer = mock(RedisBatchWriter.class);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private ConcurrentMessageListenerContainer<byte[], byte[]> container;

	/**
	 * One DEL per record, keyed by its offset: enough to see which records reached the
	 * writer.
	 */
	private final RecordMapper mapper = record -> List
		.of(RedisWrite.del((record.partition() + "@" + record.offset()).getBytes(StandardCharsets.UTF_8)));

	@BeforeEach
	@SuppressWarnings("unchecked")
	void mockConsumer() {
		given(consumerFactory.createConsumer(any(), any(), any(), any())).willReturn(consumer);
		// send's default writes synchronously through the stubbed write
		given(writer.send(any())).willCallRealMethod();
		willAnswer(invocation -> {
			invocation.<ConsumerRebalanceListener>getArgument(1).onPartitionsAssigned(List.of(P0, P1));
			return null;
		}).given(consumer).subscribe(anyCollection(), any(ConsumerRebalanceListener.class));
		// The group has committed before, so the container has no initial position to
		// commit.
		given(consumer.committed(anySet())).willAnswer(invocation -> {
			Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
			invocation.<Set<TopicPartition>>getArgument(0).forEach(tp -> committed.put(tp, new OffsetAndMetadata(0)));
			return committed;
		});
		given(consumer.assignment()).willReturn(Set.of(P0, P1));
		// Like a real poll: returns what the broker has, or nothing after a short wait.
		given(consumer.poll(any(Duration.class))).willAnswer(invocation -> {
			ConsumerRecords<byte[], byte[]> next = polls.poll(20, TimeUnit.MILLISECONDS);
			return next != null ? next : ConsumerRecords.empty();
		});
	}

	@AfterEach
	void stopContainer() {
		if (container != null) {
			container.stop();
		}
	}

	private void start() {
		start(mapper);
	}

	private void start(RecordMapper mapper) {
		start(mapper, ListenerConfig.DEFAULT_BATCH_SIZE);
	}

	private void start(RecordMapper mapper, int batchSize) {
		ListenerConfig config = ListenerConfig.custom()
			.topics(List.of("events"))
			.batchSize(batchSize)
			.groupId("commit-order")
			.retryMaxAttempts(2)
			.retryBackoff(Duration.ofMillis(1), Duration.ofMillis(1))
			.build();
		// The factory carries the properties Sawmill's own factory would (group.id,
		// auto-commit off…).
		given(consumerFactory.getConfigurationProperties())
			.willReturn(SawmillContainers.consumerProperties(Map.of(), config));
		SawmillMetrics metrics = new SawmillMetrics(registry, config.groupId());
		container = SawmillContainers.create(consumerFactory, config, mapper, writer, DeadLetterPublisher.loggingOnly(),
				RedisCircuit.disabled("test"), metrics,
				ListenerProgress.of(config, metrics, java.time.Clock.systemUTC()));
		container.start();
	}

	/** Records 10..12 of partition 0 and 20..21 of partition 1. */
	private static ConsumerRecords<byte[], byte[]> batch() {
		Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> records = new LinkedHashMap<>();
		records.put(P0, records(P0, 10, 3));
		records.put(P1, records(P1, 20, 2));
		return new ConsumerRecords<>(records, Map.of(P0, new OffsetAndMetadata(13), P1, new OffsetAndMetadata(22)));
	}

	private static List<ConsumerRecord<byte[], byte[]>> records(TopicPartition partition, long first, int count) {
		List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
		for (long offset = first; offset < first + count; offset++) {
			records.add(new ConsumerRecord<>(partition.topic(), partition.partition(), offset, null,
					"{}".getBytes(StandardCharsets.UTF_8)));
		}
		return records;
	}

	private static PipelineResult succeeded(List<RedisWrite> writes) {
		return new PipelineResult(writes.size(), 1, List.of());
	}

	private static PipelineResult failed(List<RedisWrite> writes) {
		return new PipelineResult(writes.size(), 1,
				List.of(new PipelineResult.Failure(0, writes.get(0), new IllegalStateException("Redis is down"))));
	}

	private static Map<TopicPartition, Long> offsets(Map<TopicPartition, OffsetAndMetadata> commit) {
		Map<TopicPartition, Long> offsets = new HashMap<>();
		commit.forEach((partition, offset) -> offsets.put(partition, offset.offset()));
		return offsets;
	}

	private void verifyNothingCommitted() {
		then(consumer).should(never()).commitSync();
		then(consumer).should(never()).commitSync(any(Duration.class));
		then(consumer).should(never()).commitSync(anyMap());
		then(consumer).should(never()).commitSync(anyMap(), any(Duration.class));
		then(consumer).should(never()).commitAsync();
		then(consumer).should(never()).commitAsync(any());
		then(consumer).should(never()).commitAsync(anyMap(), any());
	}

	@Test
	@SuppressWarnings("unchecked")
	void shouldCommitNextOffsetOfEveryPartitionAfterTheBatchWasWritten() {
		given(writer.write(any())).willAnswer(invocation -> succeeded(invocation.getArgument(0)));
		polls.add(batch());

		start();

		ArgumentCaptor<Map<TopicPartition, OffsetAndMetadata>> commit = ArgumentCaptor.forClass(Map.class);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> then(consumer).should().commitSync(commit.capture()));
		InOrder inOrder = inOrder(writer, consumer);
		then(writer).should(inOrder).write(any());
		then(consumer).should(inOrder).commitSync(anyMap());
		assertThat(offsets(commit.getValue())).containsOnly(Map.entry(P0, 13L), Map.entry(P1, 22L));
		then(consumer).should(never()).seek(any(TopicPartition.class), anyLong());
	}

	@Test
	@SuppressWarnings("unchecked")
	void shouldCommitAFullBatchAsynchronouslyAfterItWasWritten() {
		given(writer.write(any())).willAnswer(invocation -> succeeded(invocation.getArgument(0)));
		polls.add(batch());

		start(mapper, 5);

		ArgumentCaptor<Map<TopicPartition, OffsetAndMetadata>> commit = ArgumentCaptor.forClass(Map.class);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> then(consumer).should().commitAsync(commit.capture(), any()));
		InOrder inOrder = inOrder(writer, consumer);
		then(writer).should(inOrder).write(any());
		then(consumer).should(inOrder).commitAsync(anyMap(), any());
		assertThat(offsets(commit.getValue())).containsOnly(Map.entry(P0, 13L), Map.entry(P1, 22L));
		then(consumer).should(never()).commitSync(anyMap());
	}

	@Test
	@SuppressWarnings("unchecked")
	void shouldWriteEveryRecordOfThePollInOneCall() {
		ArgumentCaptor<List<RedisWrite>> writes = ArgumentCaptor.forClass(List.class);
		given(writer.write(writes.capture())).willAnswer(invocation -> succeeded(invocation.getArgument(0)));
		polls.add(batch());

		start();

		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> then(consumer).should().commitSync(anyMap()));
		assertThat(writes.getAllValues()).singleElement()
			.satisfies(batch -> assertThat(batch).extracting(write -> new String(write.key(), StandardCharsets.UTF_8))
				.containsExactly("0@10", "0@11", "0@12", "1@20", "1@21"));
	}

	@Test
	void shouldCommitNothingAndSeekBackToFirstOffsetsWhenTheWriteFails() {
		given(writer.write(any())).willAnswer(invocation -> failed(invocation.getArgument(0)));
		polls.add(batch());

		start();

		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			then(consumer).should().seek(P0, 10L);
			then(consumer).should().seek(P1, 20L);
		});
		container.stop();
		InOrder inOrder = inOrder(writer, consumer);
		then(writer).should(inOrder, times(2)).write(any());
		then(consumer).should(inOrder).seek(P0, 10L);
		verifyNothingCommitted();
		assertThat(registry.get("sawmill.records").tag("outcome", "retried").counter().count()).isEqualTo(5);
	}

	@Test
	@SuppressWarnings("unchecked")
	void shouldCommitTheRedeliveredBatchOnceRedisAcknowledgesIt() {
		AtomicInteger attempts = new AtomicInteger();
		given(writer.write(any())).willAnswer(invocation -> attempts.incrementAndGet() <= 2
				? failed(invocation.getArgument(0)) : succeeded(invocation.getArgument(0)));
		// The seek makes the next poll return the same records again, as Kafka would.
		willAnswer(invocation -> {
			if (invocation.<TopicPartition>getArgument(0).equals(P0)) {
				polls.add(batch());
			}
			return null;
		}).given(consumer).seek(any(TopicPartition.class), anyLong());
		polls.add(batch());

		start();

		ArgumentCaptor<Map<TopicPartition, OffsetAndMetadata>> commit = ArgumentCaptor.forClass(Map.class);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> then(consumer).should().commitSync(commit.capture()));
		InOrder inOrder = inOrder(writer, consumer);
		then(writer).should(inOrder, times(2)).write(any());
		then(consumer).should(inOrder, atLeastOnce()).seek(P0, 10L);
		then(writer).should(inOrder).write(any());
		then(consumer).should(inOrder).commitSync(anyMap());
		assertThat(offsets(commit.getValue())).containsOnly(Map.entry(P0, 13L), Map.entry(P1, 22L));
		assertThat(attempts).hasValue(3);
	}

	@Test
	void shouldCommitBatchWhoseRecordsAreAllInvalidWithoutWriting() {
		RecordMapper rejectAll = record -> {
			throw new RecordMappingException("bad record");
		};
		polls.add(batch());

		start(rejectAll);

		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> then(consumer).should().commitSync(anyMap()));
		then(writer).should(never()).write(any());
	}

	@Test
	void shouldSubscribeToTheConfiguredTopics() {
		start();

		@SuppressWarnings("unchecked")
		ArgumentCaptor<Collection<String>> topics = ArgumentCaptor.forClass(Collection.class);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(
					() -> then(consumer).should().subscribe(topics.capture(), any(ConsumerRebalanceListener.class)));
		assertThat(topics.getValue()).containsExactly("events");
	}

}
