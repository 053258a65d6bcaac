package io.sawmill.deadletter;

/** Dead letters could not be published; the batch is not committed. */
public class DeadLetterPublishException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public DeadLetterPublishException(String message, Throwable cause) {
		super(message, cause);
	}
}
