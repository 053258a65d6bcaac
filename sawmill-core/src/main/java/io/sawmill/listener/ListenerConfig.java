package io.sawmill.listener;

import java.time.Duration;
import java.util.List;

/**
 * Immutable configuration of Sawmill's listener containers. Build with {@link #custom()}; invalid
 * values fail at {@link Builder#build()} with a message naming the value.
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
	/** Kafka's default largest message; a larger value is dead-lettered rather than written. */
	public static final int DEFAULT_MAX_RECORD_BYTES = 1024 * 1024;

	private final List<String> topics;
	private final String groupId;
	private final int concurrency;
	private final int batchSize;
	private final int retryMaxAttempts;
	private final Duration retryInitialBackoff;
	private final Duration retryMaxBackoff;
	private final Duration shutdownTimeout;
	private final int maxRecordBytes;

	private ListenerConfig(Builder b) {
		this.maxRecordBytes = b.maxRecordBytes;
		this.topics = List.copyOf(b.topics);
		this.groupId = b.groupId;
		this.concurrency = b.concurrency;
		this.batchSize = b.batchSize;
		this.retryMaxAttempts = b.retryMaxAttempts;
		this.retryInitialBackoff = b.retryInitialBackoff;
		this.retryMaxBackoff = b.retryMaxBackoff;
		this.shutdownTimeout = b.shutdownTimeout;
	}

	public static Builder custom() {
		return new Builder();
	}

	public List<String> topics() {
		return topics;
	}

	public String groupId() {
		return groupId;
	}

	/** Consumer threads, each with its own Redis connection; useful up to the partition count. */
	public int concurrency() {
		return concurrency;
	}

	/** The most records one poll returns ({@code max.poll.records}): the batch written in one round trip. */
	public int batchSize() {
		return batchSize;
	}

	/** Attempts to write a batch before it is handed back to Kafka uncommitted, to be polled again. */
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

	/** Records whose value is larger are dead-lettered with that reason instead of written. */
	public int maxRecordBytes() {
		return maxRecordBytes;
	}

	public static final class Builder {

		private int maxRecordBytes = DEFAULT_MAX_RECORD_BYTES;

		private List<String> topics = List.of();
		private String groupId = DEFAULT_GROUP_ID;
		private int concurrency = DEFAULT_CONCURRENCY;
		private int batchSize = DEFAULT_BATCH_SIZE;
		private int retryMaxAttempts = DEFAULT_RETRY_MAX_ATTEMPTS;
		private Duration retryInitialBackoff = DEFAULT_RETRY_INITIAL_BACKOFF;
		private Duration retryMaxBackoff = DEFAULT_RETRY_MAX_BACKOFF;
		private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;

		private Builder() {
		}

		public Builder topics(List<String> topics) {
			if (topics == null || topics.isEmpty() || topics.stream().anyMatch(t -> t == null || t.isBlank())) {
				throw new IllegalArgumentException("topics must name at least one topic, but was " + topics);
			}
			this.topics = topics;
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
			if (initial == null || initial.isNegative() || initial.isZero()) {
				throw new IllegalArgumentException("retry initial backoff must be positive, but was " + initial);
			}
			if (max == null || max.compareTo(initial) < 0) {
				throw new IllegalArgumentException(
						"retry max backoff must be at least the initial backoff " + initial + ", but was " + max);
			}
			this.retryInitialBackoff = initial;
			this.retryMaxBackoff = max;
			return this;
		}

		public Builder shutdownTimeout(Duration shutdownTimeout) {
			if (shutdownTimeout == null || shutdownTimeout.isNegative() || shutdownTimeout.isZero()) {
				throw new IllegalArgumentException("shutdownTimeout must be positive, but was " + shutdownTimeout);
			}
			this.shutdownTimeout = shutdownTimeout;
			return this;
		}

		public Builder maxRecordBytes(int maxRecordBytes) {
			if (maxRecordBytes < 1) {
				throw new IllegalArgumentException("maxRecordBytes must be at least 1, but was " + maxRecordBytes);
			}
			this.maxRecordBytes = maxRecordBytes;
			return this;
		}

		public ListenerConfig build() {
			if (topics.isEmpty()) {
				throw new IllegalArgumentException("topics must name at least one topic, but was " + topics);
			}
			return new ListenerConfig(this);
		}
	}
}
