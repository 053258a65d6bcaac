package io.sawmill.autoconfigure;

/**
 * Sawmill cannot start as configured, or a server it needs cannot be reached. Spring Boot prints
 * the {@link #getMessage() problem} and the {@link #action() action} instead of a stack trace.
 */
public class SawmillConfigurationException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String action;

	public SawmillConfigurationException(String problem, String action) {
		super(problem);
		this.action = action;
	}

	public SawmillConfigurationException(String problem, String action, Throwable cause) {
		super(problem, cause);
		this.action = action;
	}

	/** What to change so that start-up succeeds. */
	public String action() {
		return action;
	}
}
