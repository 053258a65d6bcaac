package io.sawmill.bench.e2e.workload;

/**
 * Which id each record of a workload writes, and its version: how many records of the same id came
 * before it. A pure function of the record's sequence number, so a run can produce, re-read and
 * verify the same records any number of times.
 */
interface KeySequence {

	/** The id record {@code seq} writes, in {@code [0, idSpace)}. */
	long id(long seq);

	/** The records with the same id before {@code seq}: 0, 1, 2, … per id, so it increases per key. */
	long version(long seq);

	/** Record {@code seq} writes id {@code seq % idSpace}: each id once per round of {@code idSpace} records. */
	record Uniform(int idSpace) implements KeySequence {

		@Override
		public long id(long seq) {
			return seq % idSpace;
		}

		@Override
		public long version(long seq) {
			return seq / idSpace;
		}
	}
}
