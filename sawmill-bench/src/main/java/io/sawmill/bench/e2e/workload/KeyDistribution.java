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

import java.util.Locale;

/**
 * How a workload's records pick their ids, all over the same id space
 * ({@code --key-distribution}).
 */
public enum KeyDistribution {

	/**
	 * Every id in turn ({@code seq % idSpace}): no key is hotter than another, and a
	 * batch of fewer records than ids writes each key at most once. The default, and the
	 * shape of every other table.
	 */
	UNIFORM,

	/**
	 * Hot keys: ids drawn from a Zipf distribution of exponent {@code --zipf-s}
	 * ({@link ZipfKeys}), as sessions, counters or popular products are written. A few
	 * keys take a large share of the records (at s = 1.1 over 200,000 ids the hottest 13
	 * %), so a batch writes them many times and most ids are never written.
	 */
	ZIPF;

	public KeySequence keys(int idSpace, double zipfExponent) {
		return this == UNIFORM ? new KeySequence.Uniform(idSpace) : new ZipfKeys(idSpace, zipfExponent);
	}

	/** "uniform" or "zipf", as on the command line. */
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

	public static KeyDistribution parse(String value) {
		for (KeyDistribution distribution : values()) {
			if (distribution.label().equals(value.toLowerCase(Locale.ROOT))) {
				return distribution;
			}
		}
		throw new IllegalArgumentException("--key-distribution must be uniform or zipf, but was " + value);
	}

}
