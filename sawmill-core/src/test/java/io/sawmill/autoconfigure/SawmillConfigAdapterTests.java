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
package io.sawmill.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import io.sawmill.listener.Delivery;
import io.sawmill.listener.internal.ListenerConfig;
import io.sawmill.redis.ReplicaShortfallPolicy;
import io.sawmill.redis.internal.PipelineConfig;

class SawmillConfigAdapterTests {

	private static SawmillProperties properties() {
		SawmillProperties properties = new SawmillProperties();
		properties.setTopics(List.of("orders"));
		properties.getMapping().setKeyTemplate("{@key}");
		return properties;
	}

	@Test
	void shouldAcceptTheDefaults() {
		SawmillProperties properties = properties();

		ListenerConfig listener = SawmillConfigAdapter.listener(properties);
		PipelineConfig pipeline = SawmillConfigAdapter.pipeline(properties);

		assertThat(listener.batchSize()).isEqualTo(ListenerConfig.DEFAULT_BATCH_SIZE);
		assertThat(listener.coalesceWrites()).isEqualTo(ListenerConfig.DEFAULT_COALESCE_WRITES);
		assertThat(pipeline.maxCommandsPerChunk()).isEqualTo(PipelineConfig.DEFAULT_MAX_COMMANDS_PER_CHUNK);
		assertThat(MappingConfigAdapter.mapping(properties).keyTemplateSource()).isEqualTo("{@key}");
		assertThatNoException().isThrownBy(() -> SawmillConfigAdapter.checkPollInterval(listener, pipeline, Map.of()));
	}

	@Test
	void shouldBindDeliveryAndHandItToTheListener() {
		SawmillProperties properties = new Binder(new MapConfigurationPropertySource(
				Map.of("sawmill.topics", "orders", "sawmill.delivery", "exactly-once")))
			.bind("sawmill", SawmillProperties.class)
			.get();

		assertThat(SawmillConfigAdapter.listener(properties()).delivery()).isEqualTo(Delivery.AT_LEAST_ONCE);
		assertThat(SawmillConfigAdapter.listener(properties).delivery()).isEqualTo(Delivery.EXACTLY_ONCE);
	}

	@Test
	void shouldHandCoalesceWritesToTheListener() {
		SawmillProperties properties = properties();
		properties.setCoalesceWrites(!ListenerConfig.DEFAULT_COALESCE_WRITES);

		assertThat(SawmillConfigAdapter.listener(properties).coalesceWrites())
			.isNotEqualTo(ListenerConfig.DEFAULT_COALESCE_WRITES);
	}

	@Test
	void shouldNameThePropertiesAndTheBadValue() {
		SawmillProperties properties = properties();
		properties.getPipeline().setMaxCommandsPerChunk(0);

		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> SawmillConfigAdapter.pipeline(properties))
			.withMessage("Invalid sawmill.pipeline.*: maxCommandsPerChunk must be at least 1, but was 0");
	}

	@Test
	void shouldNameTheDeadLetterBrakePropertiesAndTheBadValue() {
		SawmillProperties properties = properties();
		properties.getDeadLetter().getBrake().setMaxRatio(2);

		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> SawmillConfigAdapter.deadLetterBrake(properties))
			.withMessage(
					"Invalid sawmill.dead-letter.brake.*: maxRatio must be greater than 0 and at most 1, but was 2.0");
	}

	@Test
	void shouldWaitForOneReplicaPerBatchOnlyWhenRedisIsSentinelManagedAndNothingElseIsSet() {
		SawmillProperties properties = properties();

		assertThat(SawmillConfigAdapter.pipeline(properties, false).waitForReplicas()).isZero();
		assertThat(SawmillConfigAdapter.pipeline(properties, true).waitForReplicas()).isEqualTo(1);

		properties.getPipeline().setWaitForReplicas(0);
		assertThat(SawmillConfigAdapter.pipeline(properties, true).waitForReplicas()).isZero();
		properties.getPipeline().setWaitForReplicas(2);
		assertThat(SawmillConfigAdapter.pipeline(properties, false).waitForReplicas()).isEqualTo(2);
	}

	@Test
	void shouldRejectANegativeReplicaCountAndAReplicaTimeoutAsLongAsTheBatchTimeout() {
		SawmillProperties properties = properties();
		properties.getPipeline().setWaitForReplicas(-1);

		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> SawmillConfigAdapter.pipeline(properties))
			.withMessage("Invalid sawmill.pipeline.*: waitForReplicas must be 0 or more, but was -1");

		properties.getPipeline().setWaitForReplicas(1);
		properties.getPipeline().setTimeout(Duration.ofSeconds(2));
		properties.getPipeline().setReplicaTimeout(Duration.ofSeconds(2));
		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> SawmillConfigAdapter.pipeline(properties))
			.withMessage("Invalid sawmill.pipeline.*: replicaTimeout must be shorter than timeout (PT2S) so that a "
					+ "batch can wait for its replicas, but was PT2S");
	}

	@Test
	void shouldMapTheReplicaShortfallPolicyAndGraceAndRejectANegativeGrace() {
		SawmillProperties properties = properties();
		assertThat(SawmillConfigAdapter.pipeline(properties).replicaShortfall())
			.isEqualTo(ReplicaShortfallPolicy.PROCEED);
		assertThat(SawmillConfigAdapter.pipeline(properties).replicaShortfallGrace()).isEqualTo(Duration.ofSeconds(30));

		properties.getPipeline().setReplicaShortfall(ReplicaShortfallPolicy.REFUSE);
		properties.getPipeline().setReplicaShortfallGrace(Duration.ofMinutes(2));
		PipelineConfig pipeline = SawmillConfigAdapter.pipeline(properties);

		assertThat(pipeline.replicaShortfall()).isEqualTo(ReplicaShortfallPolicy.REFUSE);
		assertThat(pipeline.replicaShortfallGrace()).isEqualTo(Duration.ofMinutes(2));
		properties.getPipeline().setReplicaShortfallGrace(Duration.ofSeconds(-1));
		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> SawmillConfigAdapter.pipeline(properties))
			.withMessage("Invalid sawmill.pipeline.*: replicaShortfallGrace must be 0 or more, but was PT-1S");
	}

	@Test
	void shouldRejectRetryBackoffBelowItsInitialValue() {
		SawmillProperties properties = properties();
		properties.getRetry().setInitialBackoff(Duration.ofSeconds(2));
		properties.getRetry().setMaxBackoff(Duration.ofSeconds(1));

		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> SawmillConfigAdapter.listener(properties))
			.withMessageContaining("retry max backoff must be at least the initial backoff PT2S, but was PT1S");
	}

	@Test
	void shouldCountEveryAttemptAndBackoffAgainstTheMaxPollInterval() {
		SawmillProperties properties = properties();
		properties.getPipeline().setTimeout(Duration.ofSeconds(10));
		properties.getRetry().setMaxAttempts(3);
		properties.getRetry().setMaxBackoff(Duration.ofSeconds(5));
		ListenerConfig listener = SawmillConfigAdapter.listener(properties);
		PipelineConfig pipeline = SawmillConfigAdapter.pipeline(properties);

		// 3 × 10 s + 2 × 5 s = 40 s
		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> SawmillConfigAdapter.checkPollInterval(listener, pipeline,
					Map.of(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "40000")))
			.withMessageContaining("up to PT40S")
			.satisfies(ex -> assertThat(ex.action()).contains("above 40000"));
		assertThatNoException().isThrownBy(() -> SawmillConfigAdapter.checkPollInterval(listener, pipeline,
				Map.of(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 40_001)));
	}

	@Test
	void shouldMakeTheInstanceIdTheGroupInstanceIdAndRefuseADifferentOne() {
		SawmillProperties properties = properties();
		Map<String, Object> consumer = new HashMap<>();
		SawmillConfigAdapter.instanceId(properties, consumer);
		assertThat(consumer).doesNotContainKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);

		properties.setInstanceId("sawmill-0");
		SawmillConfigAdapter.instanceId(properties, consumer);
		assertThat(consumer).containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "sawmill-0");

		Map<String, Object> other = new HashMap<>(Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "pod-1"));
		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> SawmillConfigAdapter.instanceId(properties, other))
			.withMessage("sawmill.instance-id (sawmill-0) and spring.kafka.consumer.properties[group.instance.id] "
					+ "(pod-1) differ");
		properties.setInstanceId(" ");
		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> SawmillConfigAdapter.instanceId(properties, new HashMap<>()))
			.withMessage("sawmill.instance-id is blank");
	}

}
