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
package io.sawmill.redis.internal;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.lettuce.core.RedisException;
import io.lettuce.core.cluster.SlotHash;
import io.sawmill.mapping.RedisWrite;

/**
 * A {@link RedisBatchWriter} that can also send fenced transactions and read keys on the
 * calling thread's connection: what {@code sawmill.delivery=exactly-once} writes with
 * (each partition's share of a batch in one transaction with the partition's watermark,
 * fenced by the watermark the thread expects, read back after a failure).
 * <p>
 * Called from listener threads, like {@link RedisBatchWriter}.
 */
public interface TransactionalBatchWriter extends RedisBatchWriter {

	/**
	 * Which keys one transaction may hold, by the Redis the writer writes to.
	 */
	enum Keyspace {

		/**
		 * A standalone or Sentinel-managed server: a transaction may hold any keys, so a
		 * partition's share of a batch is one transaction with one watermark.
		 */
		ONE_SERVER,

		/**
		 * A Redis Cluster: a transaction's keys must lie in one hash slot, the one its
		 * master serves. Each transaction goes to its slot's master; a partition's share
		 * of a batch is one transaction per slot, each with a watermark of that slot.
		 */
		CLUSTER;

		private static final int SLOTS = SlotHash.SLOT_COUNT;

		/** The hash slot of {@code key} on a Redis Cluster (its hash tag's, if any). */
		public static int slotOf(byte[] key) {
			return SlotHash.getSlot(key);
		}

		/**
		 * A short hash tag whose slot is {@code slot}: a key holding {@code {tag}} lies
		 * in that slot.
		 */
		public static String tagOf(int slot) {
			if (slot < 0 || slot >= SLOTS) {
				throw new IllegalArgumentException("slot must be between 0 and " + (SLOTS - 1) + ", but was " + slot);
			}
			return Tags.TAGS[slot];
		}

		/** The smallest decimal number in each slot, computed on first use. */
		private static final class Tags {

			private static final String[] TAGS = compute();

			private static String[] compute() {
				String[] tags = new String[SLOTS];
				int found = 0;
				for (int n = 0; found < SLOTS; n++) {
					String tag = Integer.toString(n);
					int slot = SlotHash.getSlot(tag);
					if (tags[slot] == null) {
						tags[slot] = tag;
						found++;
					}
				}
				return tags;
			}

		}

	}

	/**
	 * Writes Redis applies whole or not at all, and only while the key {@code fence}
	 * holds {@code expected}: sent as {@code WATCH fence}, a script that compares the
	 * key's value with {@code expected} (a missing key holds 0) and touches the key when
	 * they differ, {@code MULTI}, the writes, {@code EXEC}. {@code EXEC} then applies
	 * nothing when the key held another value, or was changed by anyone between the
	 * {@code WATCH} and the {@code EXEC}.
	 *
	 * @param fence the key whose value the transaction expects, e.g. a watermark the
	 * transaction moves
	 * @param expected the value the key must hold for the transaction to apply
	 * @param writes the transaction's writes, not empty
	 */
	record Transaction(byte[] fence, long expected, List<RedisWrite> writes) {

		public Transaction {
			if (writes.isEmpty()) {
				throw new IllegalArgumentException("a transaction needs at least one write");
			}
			writes = List.copyOf(writes);
		}

	}

	/**
	 * The failure of every write of a {@link Transaction} that did not apply because its
	 * fence did not hold the expected value: another writer moved it (a consumer that
	 * took the partition over, or a transaction of this writer's that Redis applied late,
	 * on a connection since replaced). Nothing of the transaction applied.
	 */
	final class FencedException extends RedisException {

		private static final long serialVersionUID = 1L;

		public FencedException(byte[] fence, long expected, boolean heldOtherValue) {
			super("Redis key " + new String(fence, StandardCharsets.UTF_8)
					+ (heldOtherValue ? " did not hold " + expected : " held " + expected + " but changed")
					+ " when the transaction was to apply: another writer moved it, so nothing was applied");
		}

	}

	/**
	 * Sends transactions in one pipelined round trip, without waiting for their replies,
	 * each fenced as {@link Transaction} says, in list order on the calling thread's
	 * connection.
	 * <p>
	 * The result's indexes are positions in the concatenation of the transactions'
	 * writes. A write of a transaction that did not apply fails with why: an error reply
	 * at queue time (its own, or {@code EXECABORT} for the transaction's other writes),
	 * {@code EXEC}'s error, a {@link FencedException}, the fence's own error reply (the
	 * transaction may or may not have applied), or no reply (it may or may not have
	 * applied). A write of a transaction that did apply fails only with its own error
	 * when the transaction ran (e.g. {@code WRONGTYPE}); the other writes of that
	 * transaction applied. So a transaction whose last write cannot fail when it runs
	 * ({@code SET}) applied exactly when that write succeeded.
	 * <p>
	 * On a Redis Cluster ({@link Keyspace#CLUSTER}) every key of a transaction, its fence
	 * included, must lie in one hash slot: each transaction goes to the master that
	 * serves its fence's slot, the transactions of one master in list order. A
	 * transaction whose slot moved applies nothing, and its writes fail with the
	 * redirect.
	 * @param transactions the transactions, in the order they must be applied
	 */
	Sent sendTransactions(List<Transaction> transactions);

	/**
	 * Which keys one transaction may hold: known once the writer is open.
	 */
	Keyspace keyspace();

	/**
	 * Reads string values with {@code MGET} on the calling thread's connection (on a
	 * Redis Cluster, one {@code MGET} per slot, each on its master's link) and waits for
	 * the replies. The read goes after everything the thread sent on that connection, so
	 * it sees their effect once their replies arrived.
	 * @param keys the keys to read
	 * @return each key's value, in order, null where the key does not exist
	 * @throws RuntimeException when Redis does not answer within the writer's timeout
	 */
	List<byte[]> read(List<byte[]> keys);

}
