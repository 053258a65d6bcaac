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
package io.sawmill.deadletter.internal;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

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

	private final Map<String, String> topics;

	private final Map<Pattern, String> byPattern;

	private DeadLetterConfig(Builder builder) {
		this.topics = Map.copyOf(builder.topics);
		this.byPattern = builder.byPattern;
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

	/**
	 * The dead-letter topic of a source topic: the one {@link Builder#topics} names for
	 * it, else that of the first {@link Builder#topicPatterns pattern} matching it, else
	 * the source name plus this suffix.
	 */
	public String topicFor(String sourceTopic) {
		String named = topics.get(sourceTopic);
		if (named != null) {
			return named;
		}
		for (Map.Entry<Pattern, String> pattern : byPattern.entrySet()) {
			if (pattern.getKey().matcher(sourceTopic).matches()) {
				return pattern.getValue();
			}
		}
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

		private Map<String, String> topics = Map.of();

		private Map<Pattern, String> byPattern = Map.of();

		private Builder() {
		}

		/**
		 * Dead-letter topics by source topic, for source topics whose route names its
		 * own.
		 */
		public Builder topics(Map<String, String> bySourceTopic) {
			this.topics = Map.copyOf(bySourceTopic);
			return this;
		}

		/**
		 * Dead-letter topics of the topics a route's pattern matches, in the order the
		 * patterns are tried.
		 */
		public Builder topicPatterns(Map<Pattern, String> byPattern) {
			this.byPattern = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byPattern));
			return this;
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
