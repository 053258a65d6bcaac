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

import java.util.List;

import io.sawmill.mapping.RedisWrite;

/**
 * Writes the Redis commands of one batch in one pipelined round trip.
 * <p>
 * Each listener thread writes on a connection of its own that stays open for the life of
 * the writer (it is replaced only after a failure left it in an unknown state). All
 * commands are queued without flushing and then flushed once per chunk of at most
 * {@link PipelineConfig#maxCommandsPerChunk()} commands; {@link #write} returns when
 * every reply has arrived or the timeout has passed. Commands are sent in list order on
 * one connection, so Redis applies them in that order.
 * <p>
 * {@link #send} splits that in two, so a thread can put the next batch on the wire before
 * it waits for the replies of the one before: commands sent by one thread are applied in
 * the order they were sent, across sends.
 * <p>
 * Called from listener threads; per thread at most two sends outstanding, awaited in the
 * order they were sent.
 * <p>
 * {@code sawmill.delivery=exactly-once} needs a {@link TransactionalBatchWriter}, which
 * can also send transactions and read keys.
 */
public interface RedisBatchWriter extends AutoCloseable {

	/**
	 * @param writes the commands of one batch, in the order they must be applied
	 * @return the outcome of every command; {@link PipelineResult#succeeded()} is true
	 * only when Redis acknowledged each of them
	 */
	PipelineResult write(List<RedisWrite> writes);

	/**
	 * Sends the commands of one batch and returns without waiting for their replies.
	 * Writers that cannot split the round trip keep this default, which writes
	 * synchronously: correct, only without the overlap.
	 * @param writes the commands of one batch, in the order they must be applied
	 */
	default Sent send(List<RedisWrite> writes) {
		PipelineResult result = write(writes);
		return () -> result;
	}

	/** A batch's commands on the wire; their replies are awaited once. */
	@FunctionalInterface
	interface Sent {

		/**
		 * Waits for every reply, or until the writer's timeout (counted from the send)
		 * has passed.
		 * @return as {@link RedisBatchWriter#write}
		 */
		PipelineResult await();

		/**
		 * When the last reply arrived, as {@link System#nanoTime()}; call after
		 * {@link #await}. A batch's round trip is timed to it, not to the await, which
		 * may come after the thread did other work (mapped and sent the next batch).
		 * Writers that do not track it keep this default, the time of the call: the round
		 * trip then includes that work.
		 */
		default long lastReplyNanos() {
			return System.nanoTime();
		}

	}

	/**
	 * Opens the connections that {@code threads} listener threads will write on, now, so
	 * that a Redis that cannot be reached fails start-up rather than the first batch.
	 * Called once at start-up, before the listener threads write; writers that connect on
	 * first use keep this default, which does nothing.
	 * @param threads how many listener threads will write
	 */
	default void open(int threads) {
	}

	/** A round trip to Redis on the writing path; throws when Redis cannot be reached. */
	void ping();

	/** Closes every connection the writer opened. */
	@Override
	void close();

}
