package io.sawmill.listener;

import io.sawmill.redis.PipelineResult;

/**
 * Redis did not take every record of a batch within the retry budget (transient failures remain,
 * or the circuit is open). The batch's offsets are not committed: the container seeks back and
 * polls the same records again.
 */
public class BatchWriteFailedException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public BatchWriteFailedException(int attempts, PipelineResult last) {
		super("Redis did not acknowledge " + last.failures().size() + " of " + last.commands() + " commands after "
				+ attempts + " attempts; first error: " + last.failures().get(0).cause(), last.failures().get(0).cause());
	}

	public BatchWriteFailedException(String message, Throwable cause) {
		super(message, cause);
	}
}
