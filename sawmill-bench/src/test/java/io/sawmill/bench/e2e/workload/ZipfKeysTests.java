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
package io.sawmill.bench.e2e.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.Map;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

class ZipfKeysTests {

	private static final int DRAWS = 200_000;

	@Test
	void shouldDrawTheHottestKeysAsOftenAsTheZipfDistributionSays() {
		ZipfKeys keys = new ZipfKeys(1_000, 1.1);
		long[] counts = new long[1_000];
		for (long seq = 0; seq < DRAWS; seq++) {
			counts[(int) keys.id(seq)]++;
		}

		// rank 1 (id 0) has 1 / H(1000, 1.1) = 0.1794; the standard error over 200,000
		// draws is 0.0009
		double harmonic = LongStream.rangeClosed(1, 1_000).mapToDouble(k -> Math.pow(k, -1.1)).sum();
		assertThat(1 / harmonic).isCloseTo(0.1794, within(0.0001));
		assertThat(counts[0] / (double) DRAWS).isCloseTo(1 / harmonic, within(0.004));
		assertThat(counts[1] / (double) DRAWS).isCloseTo(Math.pow(2, -1.1) / harmonic, within(0.004));
		assertThat(counts[9] / (double) DRAWS).isCloseTo(Math.pow(10, -1.1) / harmonic, within(0.002));
		assertThat(keys.probability(1)).isCloseTo(1 / harmonic, within(1e-9));
		// rank 1 is the hottest, and the tail is reached
		assertThat(counts[0]).isGreaterThan(counts[1]).isGreaterThan(counts[9]);
		assertThat(LongStream.of(counts).skip(500).sum()).isPositive();
	}

	@Test
	void shouldKeepEveryIdWithinTheIdSpace() {
		ZipfKeys keys = new ZipfKeys(50, 1.1);

		assertThat(LongStream.range(0, DRAWS).map(keys::id)).allMatch(id -> id >= 0 && id < 50);
	}

	@Test
	void shouldDrawTheSameSequenceInEveryRunWhateverOrderRecordsAreAskedFor() {
		ZipfKeys first = new ZipfKeys(10_000, 1.1);
		ZipfKeys second = new ZipfKeys(10_000, 1.1);

		long late = second.id(99_999);

		assertThat(LongStream.range(0, 100_000).map(first::id).toArray())
			.containsExactly(LongStream.range(0, 100_000).map(second::id).toArray());
		assertThat(first.id(99_999)).isEqualTo(late);
	}

	@Test
	void shouldNumberTheRecordsOfEachKeyFromZero() {
		ZipfKeys keys = new ZipfKeys(100, 1.1);
		Map<Long, Long> seen = new HashMap<>();

		for (long seq = 0; seq < 10_000; seq++) {
			long id = keys.id(seq);
			assertThat(keys.version(seq)).isEqualTo(seen.getOrDefault(id, 0L));
			seen.merge(id, 1L, Long::sum);
		}
	}

	@Test
	void shouldNameABadExponent() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ZipfKeys(100, 0))
			.withMessage("the Zipf exponent must be greater than 0, but was 0.0");
	}

}
