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
package io.sawmill.listener.internal;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How the share-group consumer threads run; immutable, built with {@link #custom}.
 */
public final class ShareConfig {

	/** Kafka's default {@code group.share.delivery.count.limit}. */
	public static final int DEFAULT_DELIVERY_LIMIT = 5;

	/** The records one poll returns at most. */
	public static final int DEFAULT_BATCH_SIZE = 500;

	/** Wait before polling again after a round trip with records to release. */
	public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofSeconds(1);

	/** Longest wait before polling again after round trips with records to release. */
	public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(30);

	private final String groupId;

	private final List<String> topics;

	private final int threads;

	private final int batchSize;

	private final int maxRecordBytes;

	private final int deliveryLimit;

	private final Duration initialBackoff;

	private final Duration maxBackoff;

	private final Duration shutdownTimeout;

	private ShareConfig(Builder builder) {
		this.groupId = builder.groupId;
		this.topics = List.copyOf(builder.topics);
		this.threads = builder.threads;
		this.batchSize = builder.batchSize;
		this.maxRecordBytes = builder.maxRecordBytes;
		this.deliveryLimit = builder.deliveryLimit;
		this.initialBackoff = builder.initialBackoff;
		this.maxBackoff = builder.maxBackoff;
		this.shutdownTimeout = builder.shutdownTimeout;
	}

	/**
	 * @param groupId the share group's id; a group id names one kind of group, so it must
	 * not be the id of a consumer group
	 * @param topics the topics the share group reads (a share consumer subscribes to
	 * names, not to a pattern)
	 */
	public static Builder custom(String groupId, List<String> topics) {
		return new Builder(groupId, topics);
	}

	public String groupId() {
		return groupId;
	}

	public List<String> topics() {
		return topics;
	}

	/** Consumer threads in this process, each with its own share consumer. */
	public int threads() {
		return threads;
	}

	/** {@code max.poll.records}: the records one round trip to Redis carries at most. */
	public int batchSize() {
		return batchSize;
	}

	/** A record value larger than this is dead-lettered instead of written. */
	public int maxRecordBytes() {
		return maxRecordBytes;
	}

	/**
	 * The share group's delivery count limit: a record that cannot be written on this
	 * delivery is dead-lettered with its reason instead of released, since the broker
	 * would archive it unwritten.
	 */
	public int deliveryLimit() {
		return deliveryLimit;
	}

	public Duration initialBackoff() {
		return initialBackoff;
	}

	public Duration maxBackoff() {
		return maxBackoff;
	}

	/** How long stopping waits for each thread to finish its round trip. */
	public Duration shutdownTimeout() {
		return shutdownTimeout;
	}

	/** Builds a {@link ShareConfig}; each setter fails fast naming the bad value. */
	public static final class Builder {

		private final String groupId;

		private final List<String> topics;

		private int threads = 1;

		private int batchSize = DEFAULT_BATCH_SIZE;

		private int maxRecordBytes = Integer.MAX_VALUE;

		private int deliveryLimit = DEFAULT_DELIVERY_LIMIT;

		private Duration initialBackoff = DEFAULT_INITIAL_BACKOFF;

		private Duration maxBackoff = DEFAULT_MAX_BACKOFF;

		private Duration shutdownTimeout = Duration.ofSeconds(30);

		private Builder(String groupId, List<String> topics) {
			Objects.requireNonNull(groupId, "groupId");
			Objects.requireNonNull(topics, "topics");
			if (groupId.isBlank()) {
				throw new IllegalArgumentException("the share group id must not be blank");
			}
			if (topics.isEmpty()) {
				throw new IllegalArgumentException("a share group needs at least one topic, but was given none");
			}
			this.groupId = groupId;
			this.topics = topics;
		}

		public Builder threads(int threads) {
			this.threads = positive(threads, "threads");
			return this;
		}

		public Builder batchSize(int batchSize) {
			this.batchSize = positive(batchSize, "batchSize");
			return this;
		}

		public Builder maxRecordBytes(int maxRecordBytes) {
			this.maxRecordBytes = positive(maxRecordBytes, "maxRecordBytes");
			return this;
		}

		public Builder deliveryLimit(int deliveryLimit) {
			if (deliveryLimit < 2) {
				throw new IllegalArgumentException(
						"deliveryLimit must be at least 2, as Kafka's, but was " + deliveryLimit);
			}
			this.deliveryLimit = deliveryLimit;
			return this;
		}

		public Builder backoff(Duration initial, Duration max) {
			Objects.requireNonNull(initial, "initial");
			Objects.requireNonNull(max, "max");
			if (initial.isNegative() || max.compareTo(initial) < 0) {
				throw new IllegalArgumentException(
						"backoff must be 0 <= initial <= max, but was initial " + initial + " and max " + max);
			}
			this.initialBackoff = initial;
			this.maxBackoff = max;
			return this;
		}

		public Builder shutdownTimeout(Duration shutdownTimeout) {
			Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
			if (shutdownTimeout.isNegative()) {
				throw new IllegalArgumentException("shutdownTimeout must not be negative, but was " + shutdownTimeout);
			}
			this.shutdownTimeout = shutdownTimeout;
			return this;
		}

		public ShareConfig build() {
			return new ShareConfig(this);
		}

		private static int positive(int value, String name) {
			if (value < 1) {
				throw new IllegalArgumentException(name + " must be at least 1, but was " + value);
			}
			return value;
		}

	}

}
