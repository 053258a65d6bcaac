package io.sawmill.redis;

import java.util.List;

import io.sawmill.mapping.RedisWrite;

/**
 * Writes the Redis commands of one batch in one pipelined round trip.
 * <p>
 * Each listener thread writes on a connection of its own that stays open for the life of the
 * writer (it is replaced only after a failure left it in an unknown state). All commands are
 * queued without flushing and then flushed once per chunk of at most
 * {@link PipelineConfig#maxCommandsPerChunk()} commands; {@link #write} returns when every reply
 * has arrived or the timeout has passed. Commands are sent in list order on one connection, so
 * Redis applies them in that order.
 * <p>
 * {@link #send} splits that in two, so a thread can put the next batch on the wire before it
 * waits for the replies of the one before: commands sent by one thread are applied in the order
 * they were sent, across sends.
 * <p>
 * Called from listener threads; per thread at most two sends outstanding, awaited in the order
 * they were sent.
 */
public interface RedisBatchWriter extends AutoCloseable {

	/**
	 * @param writes the commands of one batch, in the order they must be applied
	 * @return the outcome of every command; {@link PipelineResult#succeeded()} is true only when Redis
	 *     acknowledged each of them
	 */
	PipelineResult write(List<RedisWrite> writes);

	/**
	 * Sends the commands of one batch and returns without waiting for their replies. Writers that
	 * cannot split the round trip keep this default, which writes synchronously: correct, only
	 * without the overlap.
	 * @param writes the commands of one batch, in the order they must be applied
	 */
	default Sent send(List<RedisWrite> writes) {
		PipelineResult result = write(writes);
		return () -> result;
	}

	/**
	 * Sends transactions in one pipelined round trip, without waiting for their replies: each list
	 * of writes as {@code MULTI}, the writes, {@code EXEC}, so Redis applies each list whole or not at
	 * all, in list order on the calling thread's connection.
	 * <p>
	 * The result's indexes are positions in the concatenation of the lists. A write of a transaction
	 * that did not apply fails with why: an error reply at queue time (its own, or {@code EXECABORT}
	 * for the transaction's other writes), {@code EXEC}'s error, or no reply (the transaction may or
	 * may not have applied). A write of a transaction that did apply fails only with its own error
	 * when the transaction ran (e.g. {@code WRONGTYPE}); the other writes of that transaction
	 * applied. So a transaction whose last write cannot fail when it runs ({@code SET}) applied
	 * exactly when that write succeeded.
	 * <p>
	 * Writers that cannot send transactions keep this default, which throws.
	 * @param transactions the writes of each transaction, in the order they must be applied; none empty
	 * @throws UnsupportedOperationException when the writer or its Redis cannot (a Redis Cluster)
	 */
	default Sent sendTransactions(List<List<RedisWrite>> transactions) {
		throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot send transactions");
	}

	/**
	 * Reads string values with {@code MGET} on the calling thread's connection and waits for the
	 * reply. The read goes after everything the thread sent on that connection, so it sees their
	 * effect once their replies arrived. Writers that cannot read keep this default, which throws.
	 * @param keys the keys to read
	 * @return each key's value, in order, null where the key does not exist
	 * @throws RuntimeException when Redis does not answer within the writer's timeout
	 */
	default List<byte[]> read(List<byte[]> keys) {
		throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot read keys");
	}

	/** A batch's commands on the wire; their replies are awaited once. */
	@FunctionalInterface
	interface Sent {

		/**
		 * Waits for every reply, or until the writer's timeout (counted from the send) has passed.
		 * @return as {@link RedisBatchWriter#write}
		 */
		PipelineResult await();

		/**
		 * When the last reply arrived, as {@link System#nanoTime()}; call after {@link #await}. A
		 * batch's round trip is timed to it, not to the await, which may come after the thread did
		 * other work (mapped and sent the next batch). Writers that do not track it keep this
		 * default, the time of the call: the round trip then includes that work.
		 */
		default long lastReplyNanos() {
			return System.nanoTime();
		}
	}

	/**
	 * Opens the connections that {@code threads} listener threads will write on, now, so that a Redis
	 * that cannot be reached fails start-up rather than the first batch. Called once at start-up,
	 * before the listener threads write; writers that connect on first use keep this default, which
	 * does nothing.
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
