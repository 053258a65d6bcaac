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
package io.sawmill.redis;

import java.util.List;

import io.sawmill.mapping.RedisWrite;

/**
 * A {@link RedisBatchWriter} that can also send transactions and read keys on the calling
 * thread's connection: what {@code sawmill.delivery=exactly-once} writes with (each
 * partition's share of a batch in one transaction with the partition's watermark, read
 * back after a failure).
 * <p>
 * Called from listener threads, like {@link RedisBatchWriter}.
 */
public interface TransactionalBatchWriter extends RedisBatchWriter {

	/**
	 * Sends transactions in one pipelined round trip, without waiting for their replies:
	 * each list of writes as {@code MULTI}, the writes, {@code EXEC}, so Redis applies
	 * each list whole or not at all, in list order on the calling thread's connection.
	 * <p>
	 * The result's indexes are positions in the concatenation of the lists. A write of a
	 * transaction that did not apply fails with why: an error reply at queue time (its
	 * own, or {@code EXECABORT} for the transaction's other writes), {@code EXEC}'s
	 * error, or no reply (the transaction may or may not have applied). A write of a
	 * transaction that did apply fails only with its own error when the transaction ran
	 * (e.g. {@code WRONGTYPE}); the other writes of that transaction applied. So a
	 * transaction whose last write cannot fail when it runs ({@code SET}) applied exactly
	 * when that write succeeded.
	 * @param transactions the writes of each transaction, in the order they must be
	 * applied; none empty
	 * @throws UnsupportedOperationException when the writer or its Redis cannot (a Redis
	 * Cluster)
	 */
	Sent sendTransactions(List<List<RedisWrite>> transactions);

	/**
	 * Reads string values with {@code MGET} on the calling thread's connection and waits
	 * for the reply. The read goes after everything the thread sent on that connection,
	 * so it sees their effect once their replies arrived.
	 * @param keys the keys to read
	 * @return each key's value, in order, null where the key does not exist
	 * @throws RuntimeException when Redis does not answer within the writer's timeout
	 */
	List<byte[]> read(List<byte[]> keys);

}
