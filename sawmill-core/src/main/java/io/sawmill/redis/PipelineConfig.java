package io.sawmill.redis;

import java.time.Duration;

/**
 * Immutable configuration of the pipelined Redis round trip. Build with {@link #custom()}.
 */
public final class PipelineConfig {

	/**
	 * A 1,000-record batch with HSET + EXPIRE per record (2,000 commands) goes out in one flush; a
	 * larger one in chunks of 2,000, awaited together. With 10,000-record batches, chunks of 2,000
	 * drained 256,000–299,000 records/s on the benchmark's machine, against 181,000–212,000 with
	 * chunks of 5,000 or 10,000 (docs/benchmarks.md).
	 */
	public static final int DEFAULT_MAX_COMMANDS_PER_CHUNK = 2_000;

	/** How long a whole batch may wait for its replies before it counts as failed. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

	private final int maxCommandsPerChunk;
	private final Duration timeout;

	private PipelineConfig(Builder builder) {
		this.maxCommandsPerChunk = builder.maxCommandsPerChunk;
		this.timeout = builder.timeout;
	}

	public static PipelineConfig ofDefaults() {
		return custom().build();
	}

	public static Builder custom() {
		return new Builder();
	}

	/** The most commands written before one flush; a batch with more is flushed in several chunks. */
	public int maxCommandsPerChunk() {
		return maxCommandsPerChunk;
	}

	/** How long one batch may wait for all its replies. */
	public Duration timeout() {
		return timeout;
	}

	public static final class Builder {

		private int maxCommandsPerChunk = DEFAULT_MAX_COMMANDS_PER_CHUNK;
		private Duration timeout = DEFAULT_TIMEOUT;

		private Builder() {
		}

		public Builder maxCommandsPerChunk(int maxCommandsPerChunk) {
			if (maxCommandsPerChunk < 1) {
				throw new IllegalArgumentException("maxCommandsPerChunk must be at least 1, but was " + maxCommandsPerChunk);
			}
			this.maxCommandsPerChunk = maxCommandsPerChunk;
			return this;
		}

		public Builder timeout(Duration timeout) {
			if (timeout == null || timeout.isNegative() || timeout.isZero()) {
				throw new IllegalArgumentException("timeout must be positive, but was " + timeout);
			}
			this.timeout = timeout;
			return this;
		}

		public PipelineConfig build() {
			return new PipelineConfig(this);
		}
	}
}
