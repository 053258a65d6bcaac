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
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.mock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.kafka.listener.MessageListenerContainer;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.listener.Delivery;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.RedisBatchWriter;
import io.sawmill.redis.internal.TransactionalBatchWriter;

class SawmillContainersTests {

	private final ListenerConfig config = ListenerConfig.custom()
		.topics(List.of("a", "b"))
		.groupId("g1")
		.concurrency(3)
		.batchSize(5_000)
		.shutdownTimeout(Duration.ofSeconds(7))
		.build();

	private final ListenerConfig exactlyOnce = ListenerConfig.custom()
		.topics(List.of("a"))
		.groupId("g1")
		.delivery(Delivery.EXACTLY_ONCE)
		.build();

	private final SawmillMetrics metrics = new SawmillMetrics(new SimpleMeterRegistry(), "g1");

	@Test
	void shouldOverrideTheConsumerPropertiesTheCommitContractDependsOn() {
		Map<String, Object> given = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "kafka:9092",
				ConsumerConfig.GROUP_ID_CONFIG, "someone-else", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, true,
				ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1, ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
				StringDeserializer.class);

		Map<String, Object> properties = SawmillContainers.consumerProperties(given, config);

		assertThat(properties).containsEntry(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "kafka:9092")
			.containsEntry(ConsumerConfig.GROUP_ID_CONFIG, "g1")
			.containsEntry(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false)
			.containsEntry(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000)
			.containsEntry(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class)
			.containsEntry(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class)
			.containsEntry(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest")
			.containsEntry(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
					CooperativeStickyAssignor.class.getName());
	}

	@Test
	void shouldKeepExplicitOffsetResetAndAssignmentStrategy() {
		Map<String, Object> given = Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest",
				ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RangeAssignor.class.getName());

		Map<String, Object> properties = SawmillContainers.consumerProperties(given, config);

		assertThat(properties).containsEntry(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest")
			.containsEntry(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RangeAssignor.class.getName());
	}

	@Test
	void shouldLeaveTheAssignmentToTheBrokerWithTheConsumerGroupProtocol() {
		Map<String, Object> given = Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");

		Map<String, Object> properties = SawmillContainers.consumerProperties(given, config);

		assertThat(properties).doesNotContainKey(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG)
			.containsEntry(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
	}

	@Test
	void shouldRefuseExactlyOnceWithAWriterThatCannotSendTransactions() {
		assertThatIllegalStateException()
			.isThrownBy(() -> SawmillContainers.create(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1"),
					exactlyOnce, record -> List.of(), mock(RedisBatchWriter.class), DeadLetterPublisher.loggingOnly(),
					RedisCircuit.disabled("test"), metrics))
			.withMessageContaining("sawmill.delivery=exactly-once needs a RedisBatchWriter that can send transactions")
			.withMessageContaining("sawmill.delivery=at-least-once");
	}

	@Test
	void shouldBuildAnExactlyOnceContainerOnAWriterThatSendsTransactions() {
		ConcurrentMessageListenerContainer<byte[], byte[]> container = SawmillContainers.create(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1"), exactlyOnce, record -> List.of(),
				mock(TransactionalBatchWriter.class), DeadLetterPublisher.loggingOnly(), RedisCircuit.disabled("test"),
				metrics);

		assertThat(container.getContainerProperties().getMessageListener()).isInstanceOf(PipelineBatchListener.class);
	}

	@Test
	void shouldBuildContainerThatAcknowledgesBatchesImmediatelyAndSynchronously() {
		ConcurrentMessageListenerContainer<byte[], byte[]> container = SawmillContainers.create(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1"), config, record -> List.of(),
				mock(RedisBatchWriter.class), DeadLetterPublisher.loggingOnly(), RedisCircuit.disabled("test"),
				metrics);

		ContainerProperties properties = container.getContainerProperties();
		assertThat(properties.getTopics()).containsExactly("a", "b");
		assertThat(properties.getAckMode()).isEqualTo(ContainerProperties.AckMode.MANUAL_IMMEDIATE);
		assertThat(properties.isSyncCommits()).isTrue();
		assertThat(properties.getShutdownTimeout()).isEqualTo(7_000);
		assertThat(properties.getMessageListener()).isInstanceOf(PipelineBatchListener.class);
		assertThat(container.getConcurrency()).isEqualTo(3);
		assertThat(container.getCommonErrorHandler()).isInstanceOf(RedeliverBatchErrorHandler.class);
		assertThat(container.getBeanName()).isEqualTo("sawmill-g1");
	}

	@Test
	@SuppressWarnings("unchecked")
	void shouldTellEveryListenerAddedOfAssignmentsAndRevocationsNotOnlyTheLast() {
		ConcurrentMessageListenerContainer<byte[], byte[]> container = SawmillContainers.create(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1"), config, record -> List.of(),
				mock(RedisBatchWriter.class), DeadLetterPublisher.loggingOnly(), RedisCircuit.disabled("test"),
				metrics);
		ConsumerRebalanceListener lagMonitor = mock(ConsumerRebalanceListener.class);
		ConsumerRebalanceListener operations = mock(ConsumerRebalanceListener.class);
		SawmillContainers.alsoNotifyOnRebalance(container, lagMonitor);
		SawmillContainers.alsoNotifyOnRebalance(container, operations);
		List<TopicPartition> partitions = List.of(new TopicPartition("a", 0));

		PipelineBatchListener listener = (PipelineBatchListener) container.getContainerProperties()
			.getConsumerRebalanceListener();
		listener.onPartitionsAssigned(mock(Consumer.class), partitions);
		listener.onPartitionsRevokedAfterCommit(mock(Consumer.class), partitions);

		for (ConsumerRebalanceListener told : List.of(lagMonitor, operations)) {
			then(told).should().onPartitionsAssigned(partitions);
			then(told).should().onPartitionsRevoked(partitions);
		}
	}

	@Test
	void shouldSubscribeWithThePatternWhenOneIsSet() {
		ListenerConfig withPattern = ListenerConfig.custom()
			.topics(List.of("a"))
			.topicPattern(Pattern.compile("(?:\\Qa\\E)|(?:orders-.*)"))
			.groupId("g1")
			.build();
		ConcurrentMessageListenerContainer<byte[], byte[]> container = SawmillContainers.create(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1"), withPattern, record -> List.of(),
				mock(RedisBatchWriter.class), DeadLetterPublisher.loggingOnly(), RedisCircuit.disabled("test"),
				metrics);

		assertThat(container.getContainerProperties().getTopics()).isNull();
		assertThat(container.getContainerProperties().getTopicPattern().pattern())
			.isEqualTo("(?:\\Qa\\E)|(?:orders-.*)");
	}

	@Test
	@SuppressWarnings("unchecked")
	void shouldSeekEveryPartitionOfAFailedBatchBackToItsFirstRecord() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		RedeliverBatchErrorHandler handler = new RedeliverBatchErrorHandler(
				TestListeners.redelivery(new SawmillMetrics(registry, "g1")));
		Consumer<byte[], byte[]> consumer = mock(Consumer.class);
		TopicPartition a0 = new TopicPartition("a", 0);
		TopicPartition b2 = new TopicPartition("b", 2);
		ConsumerRecords<byte[], byte[]> batch = new ConsumerRecords<>(
				Map.of(a0, List.of(record(a0, 7), record(a0, 8), record(a0, 9)), b2, List.of(record(b2, 100))),
				Map.of());

		handler.handleBatch(new IllegalStateException("Redis is down"), batch, consumer,
				mock(MessageListenerContainer.class), () -> {
				});

		then(consumer).should().seek(a0, 7L);
		then(consumer).should().seek(b2, 100L);
		assertThat(handler.isAckAfterHandle()).isFalse();
		assertThat(handler.seeksAfterHandling()).isTrue();
		assertThat(registry.get("sawmill.records").tag("outcome", "retried").tag("topic", "a").counter().count())
			.isEqualTo(3);
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	@SuppressWarnings("unchecked")
	void shouldLogWhyAFailedBatchIsPolledAgain(CapturedOutput output) {
		RedeliverBatchErrorHandler handler = new RedeliverBatchErrorHandler(TestListeners.redelivery(metrics));
		TopicPartition a0 = new TopicPartition("a", 0);
		ConsumerRecords<byte[], byte[]> batch = new ConsumerRecords<>(Map.of(a0, List.of(record(a0, 7))), Map.of());
		// spring-kafka hands the error handler the listener's exception wrapped in its
		// own.
		Exception thrown = new ListenerExecutionFailedException("Listener failed",
				new IllegalStateException("connection to redis lost"));

		handler.handleBatch(thrown, batch, mock(Consumer.class), mock(MessageListenerContainer.class), () -> {
		});

		assertThat(output).contains("Batch of 1 records not committed").contains("connection to redis lost");
	}

	private static ConsumerRecord<byte[], byte[]> record(TopicPartition partition, long offset) {
		return new ConsumerRecord<>(partition.topic(), partition.partition(), offset, null,
				"{}".getBytes(StandardCharsets.UTF_8));
	}

}
