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

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

import io.sawmill.admin.internal.ReplicaShortfallView;
import io.sawmill.deadletter.DeadLetter;
import io.sawmill.deadletter.internal.DeadLetterBrakeEngagedException;
import io.sawmill.deadletter.internal.DeadLetterBrake;
import io.sawmill.deadletter.internal.DeadLetterBrakeConfig;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.redis.internal.ReplicaShortfall;
import io.sawmill.testkit.MutableClock;

class SawmillEndpointTests {

	private final DeadLetterBrake brake = DeadLetterBrake.of(DeadLetterBrakeConfig.custom().window(1).build(),
			new MutableClock(Instant.parse("2030-01-01T00:00:00Z")));

	private final SawmillEndpoint endpoint = new SawmillEndpoint(brake);

	@Test
	void shouldShowAndReleaseAnEngagedBrake() throws Exception {
		engage();
		assertThat(endpoint.read("brake")).containsEntry("state", "engaged");

		assertThat(endpoint.act("brake", "release", null, null, null, null)).containsEntry("released", true)
			.hasEntrySatisfying("was", was -> assertThat((String) was).contains("orders-0@3"));

		assertThat(brake.engaged()).isEmpty();
		assertThat(endpoint.read("brake")).containsEntry("state", "released");
		assertThat(endpoint.act("brake", "release", null, null, null, null)).containsEntry("released", false);
	}

	@Test
	void shouldRefuseAnUnknownActionAndAnswerNothingForAnUnknownPart() throws Exception {
		engage();

		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> endpoint.act("brake", "resume", null, null, null, null))
			.withMessage("Unknown action 'resume' on the dead-letter brake");
		assertThat(brake.engaged()).isPresent();
		assertThat(endpoint.read("doctor")).isNull();
		assertThat(endpoint.act("doctor", "release", null, null, null, null)).isNull();
	}

	@Test
	void shouldShowTheMastersShortOfReplicasAndThePolicyThatAppliesToThem() throws Exception {
		ReplicaShortfall shortfall = new ReplicaShortfall("10.0.0.1:6379", 0, 1, Instant.parse("2030-01-01T00:00:00Z"),
				ReplicaShortfall.State.PROCEEDING);
		SawmillEndpoint withReplicas = new SawmillEndpoint(null, null, null,
				new ReplicaShortfallView(() -> List.of(shortfall), PipelineConfig.ofDefaults()));

		assertThat(withReplicas.read("replicas")).containsEntry("policy", "proceed")
			.containsEntry("grace", "PT30S")
			.containsEntry("shortfalls", List.of(Map.of("master", "10.0.0.1:6379", "attached", 0, "required", 1,
					"since", "2030-01-01T00:00:00Z", "state", "proceeding")));
		assertThat(endpoint.read("replicas")).as("without a writer").isNull();
	}

	private void engage() {
		try {
			brake.guard(deadLetters -> {
			}).publish(List.of(new DeadLetter(new ConsumerRecord<>("orders", 0, 3, null, new byte[0]), "bad", null)));
		}
		catch (DeadLetterBrakeEngagedException expected) {
			// engaged by its first dead letter (window 1)
		}
	}

}
