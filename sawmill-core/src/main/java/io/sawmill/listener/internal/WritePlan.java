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
package io.sawmill.listener.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.sawmill.mapping.RedisWrite;

/**
 * The commands one round trip sends for a list of records, and for each command the
 * records it carries: when the command fails, each of them has that outcome
 * ({@link Outcomes#of}). Either {@link #oneToOne} (every record's writes as its mapper
 * returned them) or {@link Coalescer#plan} (the writes of one key merged into the fewest
 * commands that leave the same final state).
 * <p>
 * Every record of {@code records} is carried by at least one command, so a record is
 * written only when Redis acknowledged every command carrying it.
 * <p>
 * A plan of transactions ({@link PartitionTransactions}) names each transaction's last
 * write, the one that applied exactly when the transaction did
 * ({@link #endsTransaction}); a plain plan has none.
 *
 * @param records the records of the round trip, in poll order
 * @param writes the commands to send, in the order Redis must apply them
 * @param carried for each command of {@code writes}, the indices in {@code records} of
 * the records it carries, ascending
 * @param transactionEnds the positions in {@code writes} of each transaction's last
 * write, ascending; empty for a plan without transactions
 */
record WritePlan(List<MappedRecord> records, List<RedisWrite> writes, List<int[]> carried, int[] transactionEnds) {

	private static final int[] NO_TRANSACTIONS = {};

	/** A plan without transactions. */
	WritePlan(List<MappedRecord> records, List<RedisWrite> writes, List<int[]> carried) {
		this(records, writes, carried, NO_TRANSACTIONS);
	}

	/**
	 * Each record's writes in order, each carrying its own record only: what Redis gets
	 * without coalescing.
	 */
	static WritePlan oneToOne(List<MappedRecord> records) {
		List<RedisWrite> writes = new ArrayList<>(records.size() * 2);
		List<int[]> carried = new ArrayList<>(records.size() * 2);
		for (int r = 0; r < records.size(); r++) {
			int[] own = { r };
			for (RedisWrite write : records.get(r).writes()) {
				writes.add(write);
				carried.add(own);
			}
		}
		return new WritePlan(records, writes, carried);
	}

	/**
	 * Whether the plan's writes are sent as transactions, each applied whole or not at
	 * all.
	 */
	boolean transactional() {
		return transactionEnds.length > 0;
	}

	/**
	 * Whether command {@code write} is a transaction's last write: it applied exactly
	 * when its transaction did.
	 */
	boolean endsTransaction(int write) {
		return Arrays.binarySearch(transactionEnds, write) >= 0;
	}

	/** The indices of the records that command {@code write} carries. */
	int[] carriedBy(int write) {
		return carried.get(write);
	}

	/**
	 * How many of the records' writes are not sent as commands of their own: merged into
	 * another, or dropped as without effect.
	 */
	int coalesced() {
		int mapped = 0;
		for (MappedRecord record : records) {
			mapped += record.writes().size();
		}
		return mapped - writes.size();
	}
}
