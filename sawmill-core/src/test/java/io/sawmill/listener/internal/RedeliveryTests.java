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
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.metrics.internal.SawmillMetrics;

class RedeliveryTests {

	private static final TopicPartition A0 = new TopicPartition("a", 0);

	private static final TopicPartition B1 = new TopicPartition("b", 1);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final SawmillMetrics metrics = new SawmillMetrics(registry, "g1");

	/**
	 * Backoffs asked of the timer, in order; their tasks run only when a test says so.
	 */
	private final List<Duration> delays = new ArrayList<>();

	private final List<Runnable> timers = new ArrayList<>();

	private final ContainerPauses pauses = new ContainerPauses((delay, task) -> {
		delays.add(delay);
		timers.add(task);
	});

	@SuppressWarnings("unchecked")
	private final ConcurrentMessageListenerContainer<byte[], byte[]> container = mock(
			ConcurrentMessageListenerContainer.class);

	@SuppressWarnings("unchecked")
	private final KafkaMessageListenerContainer<byte[], byte[]> child = mock(KafkaMessageListenerContainer.class);

	@SuppressWarnings("unchecked")
	private final Consumer<byte[], byte[]> consumer = mock(Consumer.class);

	private final Redelivery redelivery = new Redelivery(ListenerProgress.of(ListenerConfig.custom()
		.topics(List.of("a", "b"))
		.redeliveryBackoff(Duration.ofMillis(100), Duration.ofMillis(300))
		.build(), metrics, Clock.systemUTC()), pauses, metrics);

	RedeliveryTests() {
		given(container.getContainers()).willReturn(List.of(child));
		pauses.control(container);
	}

	@Test
	void shouldSeekEachPartitionBackAndPauseItForABackoffThatGrowsWithEachConsecutiveFailure() {
		List<ConsumerRecord<byte[], byte[]>> batch = List.of(record(A0, 7), record(A0, 8), record(B1, 100));

		redelivery.redeliver(consumer, batch, false, new IllegalStateException("redis down"));
		redelivery.redeliver(consumer, batch, false, new IllegalStateException("redis down"));
		redelivery.redeliver(consumer, batch, false, new IllegalStateException("redis down"));
		redelivery.redeliver(consumer, batch, false, new IllegalStateException("redis down"));

		then(consumer).should(times(4)).seek(A0, 7L);
		then(consumer).should(times(4)).seek(B1, 100L);
		then(container).should(times(4)).pausePartition(A0);
		assertThat(delays).containsExactly(Duration.ofMillis(100), Duration.ofMillis(100), Duration.ofMillis(200),
				Duration.ofMillis(200), Duration.ofMillis(300), Duration.ofMillis(300), Duration.ofMillis(300),
				Duration.ofMillis(300));
		assertThat(registry.get("sawmill.batch.redelivered").counter().count()).isEqualTo(4);
		assertThat(registry.get("sawmill.records").tag("outcome", "retried").tag("topic", "a").counter().count())
			.isEqualTo(8);
	}

	@Test
	void shouldResumeThePartitionsWhenTheBackoffIsOver() {
		redelivery.redeliver(consumer, List.of(record(A0, 7)), false, new IllegalStateException("redis down"));
		then(child).should(never()).resumePartition(A0);

		timers.forEach(Runnable::run);

		then(child).should().resumePartition(A0);
	}

	@Test
	void shouldResumeAfterTheLatestBackoffOnlyWhenAPartitionFailedAgainMeanwhile() {
		redelivery.redeliver(consumer, List.of(record(A0, 7)), false, new IllegalStateException("redis down"));
		redelivery.redeliver(consumer, List.of(record(A0, 7)), false, new IllegalStateException("redis down"));

		timers.get(0).run();
		then(child).should(never()).resumePartition(A0);

		timers.get(1).run();
		then(child).should().resumePartition(A0);
	}

	@Test
	void shouldStartFromTheInitialBackoffAgainOnceABatchIsCommitted() {
		redelivery.redeliver(consumer, List.of(record(A0, 7)), false, new IllegalStateException("redis down"));
		redelivery.redeliver(consumer, List.of(record(A0, 7)), false, new IllegalStateException("redis down"));

		redelivery.committed();
		redelivery.redeliver(consumer, List.of(record(A0, 9)), false, new IllegalStateException("redis down"));

		assertThat(delays).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(100));
	}

	@Test
	void shouldLeavePartitionsNoLongerAssignedAloneDuringARebalance() {
		given(consumer.assignment()).willReturn(Set.of(B1));

		redelivery.redeliver(consumer, List.of(record(A0, 7), record(B1, 3)), true, new IllegalStateException("x"));

		then(consumer).should(never()).seek(A0, 7L);
		then(consumer).should().seek(B1, 3L);
		then(container).should(never()).pausePartition(A0);
		then(container).should().pausePartition(B1);
	}

	private static ConsumerRecord<byte[], byte[]> record(TopicPartition partition, long offset) {
		return new ConsumerRecord<>(partition.topic(), partition.partition(), offset, null,
				"{}".getBytes(StandardCharsets.UTF_8));
	}

}
