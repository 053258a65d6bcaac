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
package io.sawmill.health.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;

class ListenerContainerHealthTests {

	@Test
	void shouldBeUpWithEachConsumersStateAndPartitionsWhileRunning() {
		ConcurrentMessageListenerContainer<?, ?> container = container(true, false, false,
				child(true, false, Set.of(new TopicPartition("t", 0), new TopicPartition("t", 1))),
				child(true, false, Set.of()));

		HealthReport report = new ListenerContainerHealth(() -> List.of(container), () -> null).check();

		assertThat(report.up()).isTrue();
		assertThat(report.details()).containsOnlyKeys("sawmill-g1");
		@SuppressWarnings("unchecked")
		Map<String, Object> state = (Map<String, Object>) report.details().get("sawmill-g1");
		assertThat(state).containsEntry("state", "running").doesNotContainKey("reason");
		assertThat(state.get("consumers")).isEqualTo(
				List.of(Map.of("state", "running", "partitions", 2), Map.of("state", "running", "partitions", 0)));
	}

	@Test
	void shouldStayUpWhilePausedAndSayWhy() {
		ConcurrentMessageListenerContainer<?, ?> container = container(true, true, true, child(true, true, Set.of()));

		HealthReport report = new ListenerContainerHealth(() -> List.of(container), () -> "redis circuit OPEN").check();

		assertThat(report.up()).isTrue();
		assertThat(report.details().get("sawmill-g1").toString()).contains("state=paused")
			.contains("reason=redis circuit OPEN");
	}

	@Test
	void shouldBeDownWithTheReasonWhileAConsumerThreadIsStalled() {
		ConcurrentMessageListenerContainer<?, ?> container = container(true, false, false,
				child(true, false, Set.of()));

		HealthReport report = new ListenerContainerHealth(() -> List.of(container), () -> null,
				() -> "consumer-0 has not committed a batch for 75 s")
			.check();

		assertThat(report.up()).isFalse();
		assertThat(report.details()).containsEntry("stalled", "consumer-0 has not committed a batch for 75 s");
	}

	@Test
	void shouldTellAPauseNotYetInEffect() {
		ConcurrentMessageListenerContainer<?, ?> container = container(true, true, false, child(true, false, Set.of()));

		HealthReport report = new ListenerContainerHealth(() -> List.of(container), () -> null).check();

		assertThat(report.details().get("sawmill-g1").toString()).contains("state=pausing");
	}

	@Test
	void shouldBeDownWhenTheContainerOrOneOfItsConsumersStopped() {
		ConcurrentMessageListenerContainer<?, ?> stopped = container(false, false, false);
		ConcurrentMessageListenerContainer<?, ?> degraded = container(true, false, false, child(true, false, Set.of()),
				child(false, false, Set.of()));

		assertThat(new ListenerContainerHealth(() -> List.of(stopped), () -> null).check().up()).isFalse();
		HealthReport report = new ListenerContainerHealth(() -> List.of(degraded), () -> null).check();
		assertThat(report.up()).isFalse();
		assertThat(report.details().get("sawmill-g1").toString()).contains("state=stopped");
	}

	@SuppressWarnings("unchecked")
	private static ConcurrentMessageListenerContainer<?, ?> container(boolean running, boolean pauseRequested,
			boolean paused, MessageListenerContainer... children) {
		ConcurrentMessageListenerContainer<byte[], byte[]> container = mock(ConcurrentMessageListenerContainer.class);
		given(container.getListenerId()).willReturn("sawmill-g1");
		given(container.isRunning()).willReturn(running);
		given(container.isPauseRequested()).willReturn(pauseRequested);
		given(container.isContainerPaused()).willReturn(paused);
		List<KafkaMessageListenerContainer<byte[], byte[]>> list = new java.util.ArrayList<>();
		for (MessageListenerContainer child : children) {
			list.add((KafkaMessageListenerContainer<byte[], byte[]>) child);
		}
		given(container.getContainers()).willReturn(list);
		return container;
	}

	@SuppressWarnings("unchecked")
	private static MessageListenerContainer child(boolean running, boolean paused, Set<TopicPartition> partitions) {
		KafkaMessageListenerContainer<byte[], byte[]> child = mock(KafkaMessageListenerContainer.class);
		given(child.isRunning()).willReturn(running);
		given(child.isPauseRequested()).willReturn(paused);
		given(child.isContainerPaused()).willReturn(paused);
		given(child.getAssignedPartitions()).willReturn(partitions);
		return child;
	}

}
