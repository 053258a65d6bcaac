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
package io.sawmill.autoconfigure;

import java.time.Duration;

import io.sawmill.admin.internal.SawmillOperations;
import io.sawmill.deadletter.internal.DeadLetterBrakeConfig;
import io.sawmill.deadletter.internal.DeadLetterConfig;

/** Where records that cannot be written go: a dead-letter topic per source topic. */
public class SawmillDeadLetterProperties {

	/**
	 * Whether to publish records that cannot be written to a dead-letter topic; when off
	 * they are logged and counted as invalid.
	 */
	private boolean enabled = true;

	/** The dead-letter topic of a source topic is its name plus this suffix. */
	private String topicSuffix = DeadLetterConfig.DEFAULT_TOPIC_SUFFIX;

	/**
	 * Whether start-up creates a missing dead-letter topic (with the source topic's
	 * partition count).
	 */
	private boolean createTopics = true;

	/**
	 * How long one attempt waits for Kafka to acknowledge the dead letters of a batch.
	 */
	private Duration sendTimeout = DeadLetterConfig.DEFAULT_SEND_TIMEOUT;

	/**
	 * Attempts to publish the dead letters of a batch before the batch is polled again,
	 * uncommitted.
	 */
	private int maxAttempts = DeadLetterConfig.DEFAULT_MAX_ATTEMPTS;

	/**
	 * When too many recent records are dead-lettered: stop committing, pause, and wait
	 * for an operator.
	 */
	private final Brake brake = new Brake();

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

	/** The most dead letters one re-drive (POST /actuator/sawmill/redrive) may cover. */
	private int maxRedriveRecords = SawmillOperations.DEFAULT_MAX_REDRIVE_RECORDS;

	public int getMaxRedriveRecords() {
		return maxRedriveRecords;
	}

	public void setMaxRedriveRecords(int maxRedriveRecords) {
		this.maxRedriveRecords = maxRedriveRecords;
	}

	public Brake getBrake() {
		return brake;
	}

	/**
	 * The dead-letter brake (docs/reliability.md): trips on mass dead letters instead of
	 * draining the topic into the DLT.
	 */
	public static class Brake {

		/**
		 * Whether mass dead letters stop consumption until the brake is released.
		 */
		private boolean enabled = true;

		/**
		 * How many of a partition's most recent records (by offset) the ratio is taken
		 * over.
		 */
		private int window = DeadLetterBrakeConfig.DEFAULT_WINDOW;

		/**
		 * The share of a partition's last window records that, dead-lettered, trips the
		 * brake.
		 */
		private double maxRatio = DeadLetterBrakeConfig.DEFAULT_MAX_RATIO;

		/**
		 * Dead letters within a minute, per instance, above which the brake trips; 0
		 * turns this limit off.
		 */
		private int maxPerMinute = DeadLetterBrakeConfig.DEFAULT_MAX_PER_MINUTE;

		/**
		 * How long the engaged brake waits before it releases itself (doubled for each
		 * automatic release in a row, up to 8 times); 0 = only an operator releases it.
		 */
		private Duration releaseAfter = DeadLetterBrakeConfig.DEFAULT_RELEASE_AFTER;

		public boolean isEnabled() {
			return enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getWindow() {
			return window;
		}

		public void setWindow(int window) {
			this.window = window;
		}

		public double getMaxRatio() {
			return maxRatio;
		}

		public void setMaxRatio(double maxRatio) {
			this.maxRatio = maxRatio;
		}

		public int getMaxPerMinute() {
			return maxPerMinute;
		}

		public void setMaxPerMinute(int maxPerMinute) {
			this.maxPerMinute = maxPerMinute;
		}

		public Duration getReleaseAfter() {
			return releaseAfter;
		}

		public void setReleaseAfter(Duration releaseAfter) {
			this.releaseAfter = releaseAfter;
		}

	}

}
