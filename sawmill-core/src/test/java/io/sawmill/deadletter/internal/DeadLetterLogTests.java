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
package io.sawmill.deadletter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.sawmill.testkit.MutableClock;

@ExtendWith(OutputCaptureExtension.class)
class DeadLetterLogTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));

	private final DeadLetterLog log = new DeadLetterLog(clock);

	@Test
	void shouldLogTheFirstDeadLetterAtOnceAndTheRestAtMostEveryThirtySecondsCountingEveryOne(CapturedOutput output) {
		log.published(DeadLetterBrakeTests.deadLetters("orders", 3, LongStream.of(42)), topic -> topic + ".DLT");
		clock.advance(Duration.ofSeconds(10));
		log.published(DeadLetterBrakeTests.deadLetters("orders", 1, LongStream.range(0, 5)), topic -> topic + ".DLT");
		log.published(DeadLetterBrakeTests.deadLetters("clicks", 0, LongStream.of(7)), topic -> topic + ".DLT");
		clock.advance(Duration.ofSeconds(20));
		log.published(DeadLetterBrakeTests.deadLetters("orders", 1, LongStream.of(5)), topic -> topic + ".DLT");

		List<String> lines = output.getAll().lines().filter(line -> line.contains("dead-lettered")).toList();
		assertThat(lines).hasSize(2);
		assertThat(lines.get(0))
			.endsWith("1 record was dead-lettered to orders.DLT; the first, orders-3@42: bad record 42");
		assertThat(lines.get(1)).endsWith("7 records were dead-lettered since 2030-01-01T00:00:00Z to clicks.DLT, "
				+ "orders.DLT; the first, orders-1@0: bad record 0");
	}

}
