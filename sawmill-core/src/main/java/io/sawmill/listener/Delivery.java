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
package io.sawmill.listener;

import io.sawmill.mapping.RedisWrite;

/**
 * What a record's writes may do when the record comes again: after a failed batch is
 * polled again, a restart before the commit, or a rebalance ({@code sawmill.delivery}).
 */
public enum Delivery {

	/**
	 * A record's writes are applied at least once and, when its batch is polled again,
	 * possibly twice. Harmless for idempotent writes ({@code HSET}, {@code EXPIRE},
	 * {@code DEL}, the version guard); a counter ({@code INCR}) may count a record twice.
	 * The fastest: a full batch is left in flight while the next is polled and mapped,
	 * and a transient failure is retried record by record
	 * ({@link RedisWrite#idempotent()} says which batches are not). Works on every Redis
	 * topology. The default.
	 */
	AT_LEAST_ONCE,

	/**
	 * A record's writes are applied once, even when the record comes again: each
	 * partition's share of a batch is written as one {@code MULTI}/{@code EXEC}
	 * transaction together with that partition's watermark in Redis (the next offset to
	 * apply), and a record below the watermark is skipped ({@code duplicate}) rather than
	 * written. The transaction is fenced by the watermark the consumer expects, so a
	 * consumer that stalled while another took its partitions over applies nothing when
	 * it thaws ({@code fenced}), and a partition whose offsets someone else reset below
	 * its watermark is replayed or refused ({@code sawmill.offset-reset}). Makes
	 * non-idempotent writes ({@code INCR}, {@code HINCRBY}, {@code XADD}, {@code LPUSH})
	 * safe. It costs throughput: every batch is finished before the next is sent, a
	 * transient failure fails the whole batch (it is polled again, never retried record
	 * by record), and the watermark is read from Redis after a partition is assigned and
	 * after a failed batch. On a Redis Cluster, where a transaction's keys share one hash
	 * slot, a partition has a watermark per slot and a transaction per slot, which costs
	 * more commands per record, and a record whose writes span slots is dead-lettered.
	 */
	EXACTLY_ONCE

}
