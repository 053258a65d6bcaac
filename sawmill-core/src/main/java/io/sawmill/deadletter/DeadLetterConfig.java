package io.sawmill.deadletter;

import java.time.Duration;

/**
 * Immutable configuration of the dead-letter topic. Build with {@link #custom()}.
 */
public final class DeadLetterConfig {

	public static final String DEFAULT_TOPIC_SUFFIX = ".DLT";
	public static final Duration DEFAULT_SEND_TIMEOUT = Duration.ofSeconds(30);
	public static final int DEFAULT_MAX_ATTEMPTS = 3;

	private final String topicSuffix;
	private final Duration sendTimeout;
	private final int maxAttempts;

	private DeadLetterConfig(Builder builder) {
		this.topicSuffix = builder.topicSuffix;
		this.sendTimeout = builder.sendTimeout;
		this.maxAttempts = builder.maxAttempts;
	}

	public static DeadLetterConfig ofDefaults() {
		return custom().build();
	}

	public static Builder custom() {
		return new Builder();
	}

	/** The dead-letter topic of a source topic: the source name plus this suffix. */
	public String topicFor(String sourceTopic) {
		return sourceTopic + topicSuffix;
	}

	public String topicSuffix() {
		return topicSuffix;
	}

	/** How long one attempt waits for Kafka to acknowledge the dead letters. */
	public Duration sendTimeout() {
		return sendTimeout;
	}

	/** Attempts before the batch is given back to Kafka uncommitted. */
	public int maxAttempts() {
		return maxAttempts;
	}

	public static final class Builder {

		private String topicSuffix = DEFAULT_TOPIC_SUFFIX;
		private Duration sendTimeout = DEFAULT_SEND_TIMEOUT;
		private int maxAttempts = DEFAULT_MAX_ATTEMPTS;

		private Builder() {
		}

		public Builder topicSuffix(String topicSuffix) {
			if (topicSuffix == null || topicSuffix.isEmpty() || !topicSuffix.matches("[a-zA-Z0-9._-]+")) {
				throw new IllegalArgumentException(
						"topicSuffix must be non-empty and use only a-z A-Z 0-9 . _ -, but was '" + topicSuffix + "'");
			}
			this.topicSuffix = topicSuffix;
			return this;
		}

		public Builder sendTimeout(Duration sendTimeout) {
			if (sendTimeout == null || sendTimeout.isNegative() || sendTimeout.isZero()) {
				throw new IllegalArgumentException("sendTimeout must be positive, but was " + sendTimeout);
			}
			this.sendTimeout = sendTimeout;
			return this;
		}

		public Builder maxAttempts(int maxAttempts) {
			if (maxAttempts < 1) {
				throw new IllegalArgumentException("maxAttempts must be at least 1, but was " + maxAttempts);
			}
			this.maxAttempts = maxAttempts;
			return this;
		}

		public DeadLetterConfig build() {
			return new DeadLetterConfig(this);
		}
	}
}
