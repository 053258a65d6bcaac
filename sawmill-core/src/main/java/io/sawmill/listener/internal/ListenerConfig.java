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
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import io.sawmill.listener.Delivery;
import io.sawmill.listener.OffsetReset;

/**
 * Immutable configuration of Sawmill's listener containers. Build with {@link #custom()};
 * invalid values fail at {@link Builder#build()} with a message naming the value.
 */
public final class ListenerConfig {

	public static final String DEFAULT_GROUP_ID = "sawmill";

	public static final int DEFAULT_CONCURRENCY = 1;

	public static final int DEFAULT_BATCH_SIZE = 1_000;

	/** Kafka's {@code max.poll.records} cannot usefully exceed this. */
	public static final int MAX_BATCH_SIZE = 100_000;

	public static final int DEFAULT_RETRY_MAX_ATTEMPTS = 5;

	public static final Duration DEFAULT_RETRY_INITIAL_BACKOFF = Duration.ofMillis(100);

	public static final Duration DEFAULT_RETRY_MAX_BACKOFF = Duration.ofSeconds(5);

	public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

	public static final Duration DEFAULT_REDELIVERY_INITIAL_BACKOFF = Duration.ofMillis(100);

	public static final Duration DEFAULT_REDELIVERY_MAX_BACKOFF = Duration.ofSeconds(10);

	public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofMinutes(1);

	/**
	 * Kafka's default largest message; a larger value is dead-lettered rather than
	 * written.
	 */
	public static final int DEFAULT_MAX_RECORD_BYTES = 1024 * 1024;

	public static final boolean DEFAULT_COALESCE_WRITES = false;

	public static final Delivery DEFAULT_DELIVERY = Delivery.AT_LEAST_ONCE;

	public static final OffsetReset DEFAULT_OFFSET_RESET = OffsetReset.REPLAY;

	private final List<String> topics;

	private final @Nullable Pattern topicPattern;

	private final String groupId;

	private final int concurrency;

	private final int batchSize;

	private final int retryMaxAttempts;

	private final Duration retryInitialBackoff;

	private final Duration retryMaxBackoff;

	private final Duration shutdownTimeout;

	private final int maxRecordBytes;

	private final Duration redeliveryInitialBackoff;

	private final Duration redeliveryMaxBackoff;

	private final Duration stallTimeout;

	private final boolean coalesceWrites;

	private final Delivery delivery;

	private final OffsetReset offsetReset;

	private ListenerConfig(Builder b) {
		this.maxRecordBytes = b.maxRecordBytes;
		this.topics = List.copyOf(b.topics);
		this.topicPattern = b.topicPattern;
		this.groupId = b.groupId;
		this.concurrency = b.concurrency;
		this.batchSize = b.batchSize;
		this.retryMaxAttempts = b.retryMaxAttempts;
		this.retryInitialBackoff = b.retryInitialBackoff;
		this.retryMaxBackoff = b.retryMaxBackoff;
		this.shutdownTimeout = b.shutdownTimeout;
		this.redeliveryInitialBackoff = b.redeliveryInitialBackoff;
		this.redeliveryMaxBackoff = b.redeliveryMaxBackoff;
		this.stallTimeout = b.stallTimeout;
		this.coalesceWrites = b.coalesceWrites;
		this.delivery = b.delivery;
		this.offsetReset = b.offsetReset;
	}

	public static Builder custom() {
		return new Builder();
	}

	/** The topics named by configuration, not those a {@link #topicPattern()} matches. */
	public List<String> topics() {
		return topics;
	}

	/**
	 * The pattern the consumers subscribe with, or {@code null} when they subscribe to
	 * {@link #topics()}. When set it covers the named topics too (one subscription cannot
	 * mix both).
	 */
	public @Nullable Pattern topicPattern() {
		return topicPattern;
	}

	public String groupId() {
		return groupId;
	}

	/** Consumer threads, each with its Redis connection; useful up to the partitions. */
	public int concurrency() {
		return concurrency;
	}

	/**
	 * The most records one poll returns ({@code max.poll.records}): the batch written in
	 * one round trip.
	 */
	public int batchSize() {
		return batchSize;
	}

	/** Attempts to write a batch before it is left uncommitted, to be polled again. */
	public int retryMaxAttempts() {
		return retryMaxAttempts;
	}

	public Duration retryInitialBackoff() {
		return retryInitialBackoff;
	}

	public Duration retryMaxBackoff() {
		return retryMaxBackoff;
	}

	/** How long stopping may wait for the in-flight batch. */
	public Duration shutdownTimeout() {
		return shutdownTimeout;
	}

	/** A record whose value is larger is dead-lettered with that reason, not written. */
	public int maxRecordBytes() {
		return maxRecordBytes;
	}

	/**
	 * How long a batch that was not committed (its retries exhausted, the circuit open,
	 * its dead letters or its commit failed) waits before it is polled again; doubles
	 * with each consecutive failure of the consumer thread up to
	 * {@link #redeliveryMaxBackoff()}, and starts again from here once a batch is
	 * committed.
	 */
	public Duration redeliveryInitialBackoff() {
		return redeliveryInitialBackoff;
	}

	/** The longest wait before a failed batch is polled again. */
	public Duration redeliveryMaxBackoff() {
		return redeliveryMaxBackoff;
	}

	/**
	 * A consumer thread whose batches have failed, without one committed, for this long
	 * is stalled: reported by health and the {@code sawmill.listener.stalled} gauge.
	 */
	public Duration stallTimeout() {
		return stallTimeout;
	}

	/**
	 * Whether a batch's {@code HSET}, {@code EXPIRE} and {@code DEL} writes of one key
	 * are merged into the fewest commands that leave the key in the same final state;
	 * other commands are sent as they are, in order with them. Outcomes stay per record:
	 * a failed merged command fails every record folded into it.
	 */
	public boolean coalesceWrites() {
		return coalesceWrites;
	}

	/**
	 * Whether a record that comes again may apply its writes again ({@link Delivery}).
	 */
	public Delivery delivery() {
		return delivery;
	}

	/**
	 * With exactly-once delivery, what a partition reset below its watermark does
	 * ({@link OffsetReset}).
	 */
	public OffsetReset offsetReset() {
		return offsetReset;
	}

	public static final class Builder {

		private int maxRecordBytes = DEFAULT_MAX_RECORD_BYTES;

		private List<String> topics = List.of();

		private @Nullable Pattern topicPattern;

		private String groupId = DEFAULT_GROUP_ID;

		private int concurrency = DEFAULT_CONCURRENCY;

		private int batchSize = DEFAULT_BATCH_SIZE;

		private int retryMaxAttempts = DEFAULT_RETRY_MAX_ATTEMPTS;

		private Duration retryInitialBackoff = DEFAULT_RETRY_INITIAL_BACKOFF;

		private Duration retryMaxBackoff = DEFAULT_RETRY_MAX_BACKOFF;

		private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;

		private Duration redeliveryInitialBackoff = DEFAULT_REDELIVERY_INITIAL_BACKOFF;

		private Duration redeliveryMaxBackoff = DEFAULT_REDELIVERY_MAX_BACKOFF;

		private Duration stallTimeout = DEFAULT_STALL_TIMEOUT;

		private boolean coalesceWrites = DEFAULT_COALESCE_WRITES;

		private Delivery delivery = DEFAULT_DELIVERY;

		private OffsetReset offsetReset = DEFAULT_OFFSET_RESET;

		private Builder() {
		}

		public Builder topics(List<String> topics) {
			if (topics == null || topics.stream().anyMatch(t -> t == null || t.isBlank())) {
				throw new IllegalArgumentException("topics must name topics, without blanks, but was " + topics);
			}
			this.topics = topics;
			return this;
		}

		/**
		 * Subscribe with this pattern (which must match the named {@link #topics} too)
		 * rather than to the topics; {@code null}: don't.
		 */
		public Builder topicPattern(@Nullable Pattern topicPattern) {
			this.topicPattern = topicPattern;
			return this;
		}

		public Builder groupId(String groupId) {
			if (groupId == null || groupId.isBlank()) {
				throw new IllegalArgumentException("groupId must not be blank, but was '" + groupId + "'");
			}
			this.groupId = groupId;
			return this;
		}

		public Builder concurrency(int concurrency) {
			if (concurrency < 1) {
				throw new IllegalArgumentException("concurrency must be at least 1, but was " + concurrency);
			}
			this.concurrency = concurrency;
			return this;
		}

		public Builder batchSize(int batchSize) {
			if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
				throw new IllegalArgumentException(
						"batchSize must be between 1 and " + MAX_BATCH_SIZE + ", but was " + batchSize);
			}
			this.batchSize = batchSize;
			return this;
		}

		public Builder retryMaxAttempts(int retryMaxAttempts) {
			if (retryMaxAttempts < 1) {
				throw new IllegalArgumentException("retryMaxAttempts must be at least 1, but was " + retryMaxAttempts);
			}
			this.retryMaxAttempts = retryMaxAttempts;
			return this;
		}

		public Builder retryBackoff(Duration initial, Duration max) {
			requireBackoff("retry", initial, max);
			this.retryInitialBackoff = initial;
			this.retryMaxBackoff = max;
			return this;
		}

		public Builder shutdownTimeout(Duration shutdownTimeout) {
			this.shutdownTimeout = requirePositive("shutdownTimeout", shutdownTimeout);
			return this;
		}

		public Builder maxRecordBytes(int maxRecordBytes) {
			if (maxRecordBytes < 1) {
				throw new IllegalArgumentException("maxRecordBytes must be at least 1, but was " + maxRecordBytes);
			}
			this.maxRecordBytes = maxRecordBytes;
			return this;
		}

		public Builder redeliveryBackoff(Duration initial, Duration max) {
			requireBackoff("redelivery", initial, max);
			this.redeliveryInitialBackoff = initial;
			this.redeliveryMaxBackoff = max;
			return this;
		}

		public Builder stallTimeout(Duration stallTimeout) {
			this.stallTimeout = requirePositive("stallTimeout", stallTimeout);
			return this;
		}

		public Builder coalesceWrites(boolean coalesceWrites) {
			this.coalesceWrites = coalesceWrites;
			return this;
		}

		public Builder delivery(Delivery delivery) {
			this.delivery = requireOneOf("delivery", delivery, Delivery.values());
			return this;
		}

		public Builder offsetReset(OffsetReset offsetReset) {
			this.offsetReset = requireOneOf("offsetReset", offsetReset, OffsetReset.values());
			return this;
		}

		public ListenerConfig build() {
			if (topics.isEmpty() && topicPattern == null) {
				throw new IllegalArgumentException(
						"topics must name at least one topic (or set a topic pattern), but was " + topics);
			}
			return new ListenerConfig(this);
		}

		private static Duration requirePositive(String name, Duration duration) {
			if (duration == null || duration.isNegative() || duration.isZero()) {
				throw new IllegalArgumentException(name + " must be positive, but was " + duration);
			}
			return duration;
		}

		private static <E extends Enum<E>> E requireOneOf(String name, E value, E[] values) {
			if (value == null) {
				throw new IllegalArgumentException(
						name + " must be one of " + Arrays.toString(values) + ", but was null");
			}
			return value;
		}

		private static void requireBackoff(String name, Duration initial, Duration max) {
			requirePositive(name + " initial backoff", initial);
			if (max == null || max.compareTo(initial) < 0) {
				throw new IllegalArgumentException(
						name + " max backoff must be at least the initial backoff " + initial + ", but was " + max);
			}
		}

	}

}
