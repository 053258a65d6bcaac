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
 * Called from listener threads; one call per thread at a time.
 */
public interface RedisBatchWriter extends AutoCloseable {

	/**
	 * @param writes the commands of one batch, in the order they must be applied
	 * @return the outcome of every command; {@link PipelineResult#succeeded()} is true only when Redis
	 *     acknowledged each of them
	 */
	PipelineResult write(List<RedisWrite> writes);

	/** A round trip to Redis on the writing path; throws when Redis cannot be reached. */
	void ping();

	/** Closes every connection the writer opened. */
	@Override
	void close();
}
