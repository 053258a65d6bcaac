package io.sawmill.deadletter;

/**
 * The {@link DeadLetterBrake} is engaged: the dead letters were not published and the batch is not
 * committed. It is polled again once an operator released the brake.
 */
public class DeadLetterBrakeEngagedException extends DeadLetterPublishException {

	private static final long serialVersionUID = 1L;

	public DeadLetterBrakeEngagedException(String message) {
		super(message, null);
	}
}
