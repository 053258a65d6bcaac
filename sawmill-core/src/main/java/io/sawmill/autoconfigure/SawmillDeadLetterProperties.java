package io.sawmill.autoconfigure;

import java.time.Duration;

import io.sawmill.deadletter.DeadLetterConfig;

/** Where records that cannot be written go: a dead-letter topic per source topic. */
public class SawmillDeadLetterProperties {

	/** Whether to publish records that cannot be written to a dead-letter topic; when off they are logged and counted as invalid. */
	private boolean enabled = true;

	/** The dead-letter topic of a source topic is its name plus this suffix. */
	private String topicSuffix = DeadLetterConfig.DEFAULT_TOPIC_SUFFIX;

	/** Whether start-up creates a missing dead-letter topic (with the source topic's partition count). */
	private boolean createTopics = true;

	/** How long one attempt waits for Kafka to acknowledge the dead letters of a batch. */
	private Duration sendTimeout = DeadLetterConfig.DEFAULT_SEND_TIMEOUT;

	/** Attempts to publish the dead letters of a batch before the batch is polled again, uncommitted. */
	private int maxAttempts = DeadLetterConfig.DEFAULT_MAX_ATTEMPTS;

	public boolean isEnabled() {
		return enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getTopicSuffix() {
		return topicSuffix;
	}

	public void setTopicSuffix(String topicSuffix) {
		this.topicSuffix = topicSuffix;
	}

	public boolean isCreateTopics() {
		return createTopics;
	}

	public void setCreateTopics(boolean createTopics) {
		this.createTopics = createTopics;
	}

	public Duration getSendTimeout() {
		return sendTimeout;
	}

	public void setSendTimeout(Duration sendTimeout) {
		this.sendTimeout = sendTimeout;
	}

	public int getMaxAttempts() {
		return maxAttempts;
	}

	public void setMaxAttempts(int maxAttempts) {
		this.maxAttempts = maxAttempts;
	}
}
