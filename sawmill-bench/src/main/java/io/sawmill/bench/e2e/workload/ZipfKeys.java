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

import java.util.Arrays;

import org.apache.commons.math3.distribution.ZipfDistribution;
import org.apache.commons.math3.random.Well19937c;

/**
 * Ids drawn from a Zipf distribution over the id space: rank {@code k} (1 = the hottest)
 * has the probability {@code k^-s / H(n, s)} and is id {@code k - 1}. Commons Math's
 * rejection-inversion sampler on a generator of a fixed seed, so every run draws the same
 * sequence; the draws are kept (an {@code int} per record for the id and one for its
 * version), extended in order as later records are asked for. Thread-safe.
 */
public final class ZipfKeys implements KeySequence {

	/** The generator's seed: the same for every run, so runs write the same records. */
	public static final long SEED = 23;

	private final ZipfDistribution zipf;

	private final int[] recordsPerId;

	private int[] ids = new int[0];

	private int[] versions = new int[0];

	private int drawn;

	ZipfKeys(int idSpace, double exponent) {
		if (idSpace < 1) {
			throw new IllegalArgumentException("the id space must be at least 1, but was " + idSpace);
		}
		if (!(exponent > 0)) {
			throw new IllegalArgumentException("the Zipf exponent must be greater than 0, but was " + exponent);
		}
		this.zipf = new ZipfDistribution(new Well19937c(SEED), idSpace, exponent);
		this.recordsPerId = new int[idSpace];
	}

	/** The probability of rank {@code k}, i.e. of id {@code k - 1}. */
	double probability(int rank) {
		return zipf.probability(rank);
	}

	@Override
	public synchronized long id(long seq) {
		drawUpTo(seq);
		return ids[(int) seq];
	}

	@Override
	public synchronized long version(long seq) {
		drawUpTo(seq);
		return versions[(int) seq];
	}

	private void drawUpTo(long seq) {
		if (seq < 0 || seq >= Integer.MAX_VALUE - 8) {
			throw new IllegalArgumentException(
					"record numbers run from 0 to " + (Integer.MAX_VALUE - 9) + ", but was " + seq);
		}
		if (seq < drawn) {
			return;
		}
		int size = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(seq + 1, Math.max(1024, 2L * ids.length)));
		ids = Arrays.copyOf(ids, size);
		versions = Arrays.copyOf(versions, size);
		for (; drawn < size; drawn++) {
			int id = zipf.sample() - 1;
			ids[drawn] = id;
			versions[drawn] = recordsPerId[id]++;
		}
	}

}
