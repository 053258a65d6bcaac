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

import java.time.Instant;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.deadletter.internal.DeadLetterBrake;
import io.sawmill.deadletter.internal.DeadLetterBrakeConfig;
import io.sawmill.testkit.MutableClock;

class DeadLetterBrakeHealthTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));

	private final DeadLetterBrake brake = DeadLetterBrake
		.of(DeadLetterBrakeConfig.custom().window(2).maxRatio(1).build(), clock);

	@Test
	void shouldBeUpWhileTheBrakeIsReleased() {
		HealthReport report = new DeadLetterBrakeHealth(brake).check();

		assertThat(report.up()).isTrue();
		assertThat(report.details()).containsEntry("state", "released");
	}

	@Test
	void shouldBeDownWhileEngagedNamingThePartitionTheReasonAndHowToRelease() {
		DeadLetterPublisher guarded = brake.guard(deadLetters -> {
		});
		try {
			guarded.publish(List.of(deadLetter(7), deadLetter(8)));
		}
		catch (RuntimeException expected) {
			// engaged
		}

		HealthReport report = new DeadLetterBrakeHealth(brake).check();

		assertThat(report.up()).isFalse();
		assertThat(report.details()).containsEntry("state", "engaged")
			.containsEntry("topic", "orders")
			.containsEntry("partition", 4)
			.containsEntry("offset", 8L)
			.containsEntry("since", "2030-01-01T00:00:00Z")
			.containsEntry("release", "POST /actuator/sawmill/brake {\"action\":\"release\"} once the cause is fixed");
		assertThat((String) report.details().get("reason"))
			.isEqualTo("2 of the last 2 records of orders-4 dead-lettered (sawmill.dead-letter.brake.max-ratio=1.0, "
					+ "window=2); last: orders-4@8: key field 'id' is missing");
	}

	private static DeadLetter deadLetter(long offset) {
		return new DeadLetter(new ConsumerRecord<>("orders", 4, offset, null, new byte[0]), "key field 'id' is missing",
				null);
	}

}
