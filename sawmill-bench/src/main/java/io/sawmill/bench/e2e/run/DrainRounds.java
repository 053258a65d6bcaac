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

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * The order of Sawmill's busy drains after each cell's first one: rounds 2, 3, … over the
 * batch sizes. Per batch size, the direct cell and those at an RTT of 1 ms or more (on
 * one server) are paired: they drain one right after the other, direct first in odd
 * rounds and last in even ones, so that drain k of one and drain k of the other meet the
 * same moment of a machine whose speed drifts; they make
 * {@code 1 + max(sawmillDrains - 1, rttPairs)} drains. Every other cell drains
 * {@code sawmillDrains} times, before the pair in even rounds and after it in odd ones. A
 * pure function of the cells and the options.
 */
public final class DrainRounds {

	/** A Sawmill cell as the rounds see it. */
	public record Slot(double rtt, boolean cluster, int batch) {
	}

	private final List<Slot> slots;

	private final int sawmillDrains;

	private final int rttPairs;

	private final boolean pairs;

	public DrainRounds(List<Slot> slots, int sawmillDrains, int rttPairs) {
		this.slots = List.copyOf(slots);
		this.sawmillDrains = sawmillDrains;
		this.rttPairs = rttPairs;
		this.pairs = rttPairs > 0 && slots.stream().anyMatch(slot -> !slot.cluster() && slot.rtt() == 0)
				&& slots.stream().anyMatch(slot -> !slot.cluster() && slot.rtt() >= 1);
	}

	/** Whether {@code slot} is one of its batch size's RTT pair. */
	boolean paired(Slot slot) {
		return pairs && !slot.cluster() && (slot.rtt() == 0 || slot.rtt() >= 1);
	}

	/** The busy drains {@code slot} makes in the run. */
	public int drains(Slot slot) {
		return paired(slot) ? 1 + Math.max(sawmillDrains - 1, rttPairs) : sawmillDrains;
	}

	/** The drains after the first ones, round by round, batch size by batch size. */
	public List<List<Slot>> rounds(List<Integer> batchSizes) {
		int rounds = slots.stream().mapToInt(this::drains).max().orElse(1);
		List<List<Slot>> order = new ArrayList<>();
		for (int round = 2; round <= rounds; round++) {
			List<Slot> thisRound = new ArrayList<>();
			for (int batch : batchSizes) {
				List<Slot> paired = new ArrayList<>();
				List<Slot> others = new ArrayList<>();
				for (Slot slot : slots) {
					if (slot.batch() == batch && drains(slot) >= round) {
						(paired(slot) ? paired : others).add(slot);
					}
				}
				paired.sort(Comparator.comparingDouble(Slot::rtt));
				if (round % 2 == 0) {
					Collections.reverse(paired);
					thisRound.addAll(others);
					thisRound.addAll(paired);
				}
				else {
					thisRound.addAll(paired);
					thisRound.addAll(others);
				}
			}
			order.add(thisRound);
		}
		return order;
	}

}
