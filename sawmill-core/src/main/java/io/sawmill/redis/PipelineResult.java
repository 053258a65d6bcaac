package io.sawmill.redis;

import java.util.List;

import io.sawmill.mapping.RedisWrite;

/**
 * The outcome of one pipelined batch.
 * @param commands how many commands were sent
 * @param chunks how many flushes (round trips) they took
 * @param failures the commands Redis did not acknowledge, in the order they were sent
 */
public record PipelineResult(int commands, int chunks, List<Failure> failures) {

	public PipelineResult {
		failures = List.copyOf(failures);
	}

	/** Whether Redis acknowledged every command of the batch. */
	public boolean succeeded() {
		return failures.isEmpty();
	}

	/**
	 * One command that failed.
	 * @param index its position in the list given to {@link RedisBatchWriter#write}
	 * @param write the command
	 * @param cause the error reply, the timeout or the connection failure
	 */
	public record Failure(int index, RedisWrite write, Throwable cause) {
	}
}
