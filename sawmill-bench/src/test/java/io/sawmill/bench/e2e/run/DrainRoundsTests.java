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
package io.sawmill.bench.e2e.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sawmill.bench.e2e.run.DrainRounds.Slot;

class DrainRoundsTests {

	private static final Slot DIRECT = new Slot(0, false, 1_000);

	private static final Slot POINT_ONE = new Slot(0.1, false, 1_000);

	private static final Slot ONE_MS = new Slot(1, false, 1_000);

	private static final Slot CLUSTER = new Slot(0, true, 1_000);

	private static final Slot DIRECT_5000 = new Slot(0, false, 5_000);

	private static final Slot ONE_MS_5000 = new Slot(1, false, 5_000);

	@Test
	void shouldDrainTheDirectAndOneMillisecondCellsOneRightAfterTheOtherInAlternatingOrder() {
		DrainRounds rounds = new DrainRounds(List.of(DIRECT, POINT_ONE, ONE_MS, CLUSTER), 3, 5);

		List<List<Slot>> order = rounds.rounds(List.of(1_000));

		// five pairs after the first drains; the others drain until they have three
		assertThat(order).containsExactly(List.of(POINT_ONE, CLUSTER, ONE_MS, DIRECT),
				List.of(DIRECT, ONE_MS, POINT_ONE, CLUSTER), List.of(ONE_MS, DIRECT), List.of(DIRECT, ONE_MS),
				List.of(ONE_MS, DIRECT));
		assertThat(rounds.drains(DIRECT)).isEqualTo(6);
		assertThat(rounds.drains(ONE_MS)).isEqualTo(6);
		assertThat(rounds.drains(POINT_ONE)).isEqualTo(3);
		assertThat(rounds.drains(CLUSTER)).isEqualTo(3);
	}

	@Test
	void shouldPairWithinEachBatchSize() {
		DrainRounds rounds = new DrainRounds(List.of(DIRECT, ONE_MS, DIRECT_5000, ONE_MS_5000), 1, 1);

		assertThat(rounds.rounds(List.of(1_000, 5_000)))
			.containsExactly(List.of(ONE_MS, DIRECT, ONE_MS_5000, DIRECT_5000));
	}

	@Test
	void shouldGiveEveryDrainOfTheRunExactlyOnce() {
		List<Slot> slots = List.of(DIRECT, POINT_ONE, ONE_MS, CLUSTER, DIRECT_5000, ONE_MS_5000);
		DrainRounds rounds = new DrainRounds(slots, 4, 2);

		List<Slot> all = new ArrayList<>(slots);
		rounds.rounds(List.of(1_000, 5_000)).forEach(all::addAll);

		for (Slot slot : slots) {
			assertThat(all.stream().filter(slot::equals)).hasSize(rounds.drains(slot));
		}
	}

	@Test
	void shouldPairNothingWithoutADirectCellOrWithoutPairs() {
		assertThat(new DrainRounds(List.of(POINT_ONE, ONE_MS, CLUSTER), 2, 5).paired(ONE_MS)).isFalse();
		assertThat(new DrainRounds(List.of(DIRECT, ONE_MS), 2, 0).paired(ONE_MS)).isFalse();
		assertThat(new DrainRounds(List.of(DIRECT, ONE_MS), 1, 0).rounds(List.of(1_000))).isEmpty();
	}

}
