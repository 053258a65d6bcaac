package io.sawmill.bench.e2e.workload;

import java.util.Locale;

/** How a workload's records pick their ids, all over the same id space ({@code --key-distribution}). */
public enum KeyDistribution {

	/**
	 * Every id in turn ({@code seq % idSpace}): no key is hotter than another, and a batch of fewer
	 * records than ids writes each key at most once. The default, and the shape of every other table.
	 */
	UNIFORM,

	/**
	 * Hot keys: ids drawn from a Zipf distribution of exponent {@code --zipf-s} ({@link ZipfKeys}), as
	 * sessions, counters or popular products are written. A few keys take a large share of the
	 * records (at s = 1.1 over 200,000 ids the hottest 13 %), so a batch writes them many times
	 * and most ids are never written.
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
