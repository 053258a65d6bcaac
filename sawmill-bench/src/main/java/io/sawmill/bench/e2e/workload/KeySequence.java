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

/**
 * Which id each record of a workload writes, and its version: how many records of the
 * same id came before it. A pure function of the record's sequence number, so a run can
 * produce, re-read and verify the same records any number of times.
 */
interface KeySequence {

	/** The id record {@code seq} writes, in {@code [0, idSpace)}. */
	long id(long seq);

	/**
	 * The records with the same id before {@code seq}: 0, 1, 2, … per id, so it increases
	 * per key.
	 */
	long version(long seq);

	/**
	 * Record {@code seq} writes id {@code seq % idSpace}: each id once per round of
	 * {@code idSpace} records.
	 */
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
