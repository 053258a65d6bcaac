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
package io.sawmill.it.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.listener.internal.RedisCircuit;
import io.sawmill.testkit.LatencyProxy;
import io.sawmill.testkit.RedisServerProcess;
import io.sawmill.testkit.RedisVerifier;

/**
 * Scenario 2, Redis latency spike: a proxy in front of Redis adds 2 s. Round trips turn
 * slow, the circuit opens and the listener container pauses; its consumers keep polling,
 * so the group keeps the same members and assignment (no rebalance). When the spike ends,
 * a probe batch closes the circuit, consumption resumes and every record is written.
 */
class LatencySpikeIT {

	private static final String TOPIC = "latency";

	private static final VersionedEvents WORKLOAD = new VersionedEvents(8_000, 4_000);

	private static KafkaServer kafka;

	private static RedisServerProcess redis;

	private static LatencyProxy proxy;

	@BeforeAll
	static void startServers() {
		redis = RedisServerProcess.startNew();
		proxy = LatencyProxy.start(redis.host(), redis.port(), Duration.ZERO);
		kafka = KafkaServer.start();
		kafka.createTopic(TOPIC, 2);
	}

	@AfterAll
	static void stopServers() {
		kafka.close();
		proxy.close();
		redis.close();
	}

	@Test
	void shouldPauseWithoutRebalancingWhileRedisIsSlowAndCatchUpAfterwards() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(kafka, redis, TOPIC, "latency");
		properties.put("spring.data.redis.port", proxy.port());
		properties.put("sawmill.batch-size", 200);
		properties.put("sawmill.circuit-breaker.slow-call-duration", "1s");
		properties.put("sawmill.circuit-breaker.sliding-window", 2);
		properties.put("sawmill.circuit-breaker.open-wait", "2s");
		properties.put("sawmill.pipeline.timeout", "10s");
		properties.put("sawmill.retry.max-attempts", 2);
		properties.put("spring.kafka.consumer.properties[max.poll.interval.ms]", 60_000);
		try (ConfigurableApplicationContext app = SawmillApp.run(properties);
				Admin admin = Kafka.admin(kafka.bootstrapServers())) {
			RedisCircuit circuit = app.getBean(RedisCircuit.class);
			ConcurrentMessageListenerContainer<?, ?> container = app.getBean(ConcurrentMessageListenerContainer.class);
			WORKLOAD.produce(kafka.bootstrapServers(), TOPIC, 0, 2_000);
			await().atMost(Duration.ofMinutes(1))
				.until(() -> Kafka.sum(Kafka.committedOffsets(admin, "latency")) == 2_000);
			Map<String, Set<TopicPartition>> before = membersAndAssignments(admin);

			proxy.setDelay(Duration.ofSeconds(1)); // each way: 2 s added per round trip
			WORKLOAD.produce(kafka.bootstrapServers(), TOPIC, 2_000, WORKLOAD.records());
			await().atMost(Duration.ofMinutes(1)).until(() -> circuit.state() == CircuitBreaker.State.OPEN);
			await().atMost(Duration.ofSeconds(30)).until(container::isContainerPaused);

			proxy.setDelay(Duration.ZERO);
			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, 2);
			await().atMost(Duration.ofMinutes(2)).until(() -> Kafka.committedOffsets(admin, "latency").equals(end));
			assertThat(circuit.state()).isEqualTo(CircuitBreaker.State.CLOSED);
			assertThat(container.isContainerPaused()).isFalse();
			assertThat(membersAndAssignments(admin)).as("same members, same partitions: no rebalance")
				.isEqualTo(before);

			RedisVerifier.Result result = WORKLOAD.verify(redis.host(), redis.port(), Duration.ofHours(1));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
		}
	}

	private static Map<String, Set<TopicPartition>> membersAndAssignments(Admin admin) throws Exception {
		ConsumerGroupDescription group = admin.describeConsumerGroups(java.util.List.of("latency"))
			.describedGroups()
			.get("latency")
			.get(30, TimeUnit.SECONDS);
		return group.members()
			.stream()
			.collect(Collectors.toMap(m -> m.consumerId(), m -> m.assignment().topicPartitions()));
	}

}
