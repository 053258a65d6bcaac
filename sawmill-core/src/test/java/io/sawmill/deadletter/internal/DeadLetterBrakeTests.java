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
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.testkit.MutableClock;

class DeadLetterBrakeTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));

	private final List<DeadLetter> published = new ArrayList<>();

	private final DeadLetterPublisher recording = published::addAll;

	@Test
	void shouldNotEngageOnSporadicPoison() {
		DeadLetterBrake brake = DeadLetterBrake.of(DeadLetterBrakeConfig.ofDefaults(), clock);
		DeadLetterPublisher publisher = brake.guard(recording);

		// one record in fifty fails, over 100,000 records in batches of 1,000
		for (long first = 0; first < 100_000; first += 1_000) {
			publisher
				.publish(deadLetters("orders", 0, LongStream.range(first, first + 1_000).filter(o -> o % 50 == 0)));
			clock.advance(Duration.ofMillis(200));
		}

		assertThat(brake.engaged()).isEmpty();
		assertThat(published).hasSize(2_000);
	}

	@Test
	void shouldEngageWhenEveryRecordFailsWithoutPublishingTheBatchThatTrippedIt() {
		DeadLetterBrake brake = DeadLetterBrake.of(DeadLetterBrakeConfig.custom().window(1_000).maxRatio(0.5).build(),
				clock);
		DeadLetterPublisher publisher = brake.guard(recording);
		AtomicInteger pauses = new AtomicInteger();
		brake.onEngaged(pauses::incrementAndGet);

		publisher.publish(deadLetters("orders", 3, LongStream.range(0, 300)));
		assertThatExceptionOfType(DeadLetterBrakeEngagedException.class)
			.isThrownBy(() -> publisher.publish(deadLetters("orders", 3, LongStream.range(300, 600))))
			.withMessageContaining("500 of the last 1000 records of orders-3 dead-lettered")
			.withMessageContaining("orders-3@499: bad record 499");

		assertThat(published).hasSize(300);
		assertThat(pauses).hasValue(1);
		DeadLetterBrake.Trip trip = brake.engaged().orElseThrow();
		assertThat(trip.topic()).isEqualTo("orders");
		assertThat(trip.partition()).isEqualTo(3);
		assertThat(trip.offset()).isEqualTo(499);
		assertThat(trip.reason()).isEqualTo("bad record 499");
		assertThat(trip.at()).isEqualTo(clock.instant());
	}

	@Test
	void shouldRefuseEveryBatchWhileEngagedEvenOneWithoutDeadLetters() {
		DeadLetterBrake brake = DeadLetterBrake.of(DeadLetterBrakeConfig.custom().window(10).maxRatio(0.5).build(),
				clock);
		DeadLetterPublisher publisher = brake.guard(recording);
		AtomicInteger pauses = new AtomicInteger();
		brake.onEngaged(pauses::incrementAndGet);
		assertThatExceptionOfType(DeadLetterBrakeEngagedException.class)
			.isThrownBy(() -> publisher.publish(deadLetters("orders", 0, LongStream.range(0, 10))));

		assertThatExceptionOfType(DeadLetterBrakeEngagedException.class).isThrownBy(() -> publisher.publish(List.of()));
		assertThatExceptionOfType(DeadLetterBrakeEngagedException.class)
			.isThrownBy(() -> publisher.publish(deadLetters("other", 1, LongStream.of(7))));

		assertThat(published).isEmpty();
		assertThat(pauses).as("the containers are paused again at each refused batch").hasValue(3);
	}

	@Test
	void shouldReleaseItselfOnceReleaseAfterHasPassedAndLetConsumptionResume() {
		try (DeadLetterBrake brake = DeadLetterBrake.of(
				DeadLetterBrakeConfig.custom().window(10).maxRatio(0.5).releaseAfter(Duration.ofMinutes(15)).build(),
				clock)) {
			DeadLetterPublisher publisher = brake.guard(recording);
			AtomicInteger resumes = new AtomicInteger();
			brake.onReleased(resumes::incrementAndGet);
			engage(publisher);
			assertThat(brake.releasesAt()).contains(clock.instant().plus(Duration.ofMinutes(15)));

			clock.advance(Duration.ofMinutes(14));
			assertThat(brake.releaseIfDue()).isEmpty();
			assertThat(brake.engaged()).isPresent();
			clock.advance(Duration.ofMinutes(1));

			assertThat(brake.releaseIfDue()).isPresent();
			assertThat(brake.engaged()).isEmpty();
			assertThat(brake.releasesAt()).isEmpty();
			assertThat(resumes).hasValue(1);
			publisher.publish(deadLetters("orders", 0, LongStream.of(100)));
			assertThat(published).hasSize(1);
		}
	}

	@Test
	void shouldDoubleTheWaitForEachAutomaticReleaseInARowUpToEightTimesUntilAnOperatorReleases() {
		try (DeadLetterBrake brake = DeadLetterBrake.of(
				DeadLetterBrakeConfig.custom().window(10).maxRatio(0.5).releaseAfter(Duration.ofMinutes(15)).build(),
				clock)) {
			DeadLetterPublisher publisher = brake.guard(recording);
			List<Duration> waits = new ArrayList<>();
			long offset = 0;
			for (int release = 0; release < 5; release++) {
				// the cause is still there: the brake engages again right after its
				// release
				engage(publisher, offset);
				offset += 10;
				waits.add(Duration.between(clock.instant(), brake.releasesAt().orElseThrow()));
				clock.advance(waits.get(release));
				assertThat(brake.releaseIfDue()).isPresent();
			}
			engage(publisher, offset);
			brake.release();
			engage(publisher, offset + 10);

			assertThat(waits).containsExactly(Duration.ofMinutes(15), Duration.ofMinutes(30), Duration.ofMinutes(60),
					Duration.ofMinutes(120), Duration.ofMinutes(120));
			assertThat(Duration.between(clock.instant(), brake.releasesAt().orElseThrow()))
				.as("after an operator's release")
				.isEqualTo(Duration.ofMinutes(15));
		}
	}

	@Test
	void shouldLeaveTheReleaseToAnOperatorWhenReleaseAfterIsZero() {
		try (DeadLetterBrake brake = DeadLetterBrake
			.of(DeadLetterBrakeConfig.custom().window(10).maxRatio(0.5).releaseAfter(Duration.ZERO).build(), clock)) {
			engage(brake.guard(recording));
			clock.advance(Duration.ofDays(1));

			assertThat(brake.releasesAt()).isEmpty();
			assertThat(brake.releaseIfDue()).isEmpty();
			assertThat(brake.engaged()).isPresent();
		}
	}

	private void engage(DeadLetterPublisher publisher) {
		engage(publisher, 0);
	}

	/** Ten records of orders-0 from {@code first} on, every one dead-lettered. */
	private void engage(DeadLetterPublisher publisher, long first) {
		assertThatExceptionOfType(DeadLetterBrakeEngagedException.class)
			.isThrownBy(() -> publisher.publish(deadLetters("orders", 0, LongStream.range(first, first + 10))));
	}

	@Test
	void shouldCountABatchPolledAgainOnce() {
		DeadLetterBrake brake = DeadLetterBrake.of(DeadLetterBrakeConfig.custom().window(100).maxRatio(0.5).build(),
				clock);
		DeadLetterPublisher publisher = brake.guard(recording);

		// the same 40 dead letters, polled again five times (e.g. the dead-letter topic
		// was unreachable)
		for (int poll = 0; poll < 5; poll++) {
			publisher.publish(deadLetters("orders", 0, LongStream.range(0, 40)));
		}

		assertThat(brake.engaged()).isEmpty();
	}

	@Test
	void shouldLookOnlyAtEachPartitionsLastWindowOfRecords() {
		DeadLetterBrake brake = DeadLetterBrake.of(DeadLetterBrakeConfig.custom().window(100).maxRatio(0.5).build(),
				clock);
		DeadLetterPublisher publisher = brake.guard(recording);

		// 49 of every 100 records fail, on two partitions: never half of any partition's
		// last 100
		for (long first = 0; first < 1_000; first += 100) {
			long from = first;
			publisher.publish(deadLetters("orders", 0, LongStream.range(from, from + 49)));
			publisher.publish(deadLetters("orders", 1, LongStream.range(from + 51, from + 100)));
		}
		assertThat(brake.engaged()).isEmpty();

		assertThatExceptionOfType(DeadLetterBrakeEngagedException.class)
			.isThrownBy(() -> publisher.publish(deadLetters("orders", 1, LongStream.of(1_000))));
		assertThat(brake.engaged().orElseThrow().rule()).startsWith("50 of the last 100 records of orders-1");
	}

	@Test
	void shouldEngageOnMoreDeadLettersWithinAMinuteThanAllowed() {
		DeadLetterBrakeConfig config = DeadLetterBrakeConfig.custom()
			.window(1_000)
			.maxRatio(0.5)
			.maxPerMinute(100)
			.build();
		DeadLetterBrake brake = DeadLetterBrake.of(config, clock);
		DeadLetterPublisher publisher = brake.guard(recording);

		// one record in ten fails on ten partitions: 100 dead letters a minute, then one
		// more
		for (int partition = 0; partition < 10; partition++) {
			publisher.publish(deadLetters("orders", partition, LongStream.of(0, 10, 20, 30, 40, 50, 60, 70, 80, 90)));
		}
		clock.advance(Duration.ofSeconds(61));
		for (int partition = 0; partition < 10; partition++) {
			publisher.publish(
					deadLetters("orders", partition, LongStream.of(100, 110, 120, 130, 140, 150, 160, 170, 180, 190)));
		}
		assertThat(brake.engaged()).as("100 within the last minute is the limit, not past it").isEmpty();

		assertThatExceptionOfType(DeadLetterBrakeEngagedException.class)
			.isThrownBy(() -> publisher.publish(deadLetters("orders", 10, LongStream.of(0))))
			.withMessageContaining("101 dead letters within a minute (sawmill.dead-letter.brake.max-per-minute=100)");
		assertThat(published).hasSize(200);
	}

	@Test
	void shouldResumeOnReleaseAndEngageAgainAfterTheSameBoundIfRecordsStillFail() {
		DeadLetterBrake brake = DeadLetterBrake.of(DeadLetterBrakeConfig.custom().window(100).maxRatio(0.5).build(),
				clock);
		DeadLetterPublisher publisher = brake.guard(recording);
		AtomicInteger resumes = new AtomicInteger();
		brake.onReleased(resumes::incrementAndGet);
		assertThat(brake.release()).as("nothing to release").isEmpty();
		assertThatExceptionOfType(DeadLetterBrakeEngagedException.class)
			.isThrownBy(() -> publisher.publish(deadLetters("orders", 0, LongStream.range(0, 60))));

		assertThat(brake.release()).isPresent();

		assertThat(resumes).hasValue(1);
		assertThat(brake.engaged()).isEmpty();
		// the refused batch comes again, with the cause not fixed: 49 more are published,
		// the 50th engages it
		assertThatNoException().isThrownBy(() -> publisher.publish(deadLetters("orders", 0, LongStream.range(0, 49))));
		assertThatExceptionOfType(DeadLetterBrakeEngagedException.class)
			.isThrownBy(() -> publisher.publish(deadLetters("orders", 0, LongStream.range(49, 60))));
		assertThat(published).hasSize(49);
	}

	@Test
	void shouldKeepTheOutcomeOfThePublisherItGuards() {
		DeadLetterBrake brake = DeadLetterBrake.of(DeadLetterBrakeConfig.ofDefaults(), clock);

		assertThat(brake.guard(DeadLetterPublisher.loggingOnly()).outcome())
			.isEqualTo(DeadLetterPublisher.loggingOnly().outcome());
	}

	static List<DeadLetter> deadLetters(String topic, int partition, LongStream offsets) {
		return offsets
			.mapToObj(offset -> new DeadLetter(new ConsumerRecord<>(topic, partition, offset, new byte[0], new byte[0]),
					"bad record " + offset, null))
			.toList();
	}

}
