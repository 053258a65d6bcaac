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
package io.sawmill.redis.internal;

import java.time.Duration;

import io.sawmill.redis.ReplicaShortfallPolicy;

/**
 * Immutable configuration of the pipelined Redis round trip. Build with
 * {@link #custom()}.
 */
public final class PipelineConfig {

	/**
	 * A 1,000-record batch with HSET + EXPIRE per record (2,000 commands) goes out in one
	 * flush; a larger one in chunks of 2,000, awaited together. docs/benchmarks.md
	 * compares chunk sizes.
	 */
	public static final int DEFAULT_MAX_COMMANDS_PER_CHUNK = 2_000;

	/** How long a whole batch may wait for its replies before it counts as failed. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

	/**
	 * By default the master's acknowledgement is enough: no replica has to confirm a
	 * batch.
	 */
	public static final int DEFAULT_WAIT_FOR_REPLICAS = 0;

	/** How long a batch waits for its replicas' confirmation, when it waits for any. */
	public static final Duration DEFAULT_REPLICA_TIMEOUT = Duration.ofSeconds(1);

	/**
	 * After the grace, a master short of replicas takes writes with the replicas it has:
	 * a stall is not safer, since Kafka deletes what stays unconsumed past its retention
	 * (docs/reliability.md#replica-shortfall).
	 */
	public static final ReplicaShortfallPolicy DEFAULT_REPLICA_SHORTFALL = ReplicaShortfallPolicy.PROCEED;

	/**
	 * Twice Redis Cluster's default {@code cluster-node-timeout} (15 s): a master cut off
	 * from the majority refuses writes by then, before a batch goes on without its
	 * replicas.
	 */
	public static final Duration DEFAULT_REPLICA_SHORTFALL_GRACE = Duration.ofSeconds(30);

	private final int maxCommandsPerChunk;

	private final Duration timeout;

	private final int waitForReplicas;

	private final Duration replicaTimeout;

	private final ReplicaShortfallPolicy replicaShortfall;

	private final Duration replicaShortfallGrace;

	private PipelineConfig(Builder builder) {
		this.maxCommandsPerChunk = builder.maxCommandsPerChunk;
		this.timeout = builder.timeout;
		this.waitForReplicas = builder.waitForReplicas;
		this.replicaTimeout = builder.replicaTimeout;
		this.replicaShortfall = builder.replicaShortfall;
		this.replicaShortfallGrace = builder.replicaShortfallGrace;
	}

	public static PipelineConfig ofDefaults() {
		return custom().build();
	}

	public static Builder custom() {
		return new Builder();
	}

	/** A builder that starts from every setting of {@code base}. */
	public static Builder from(PipelineConfig base) {
		return new Builder().maxCommandsPerChunk(base.maxCommandsPerChunk)
			.timeout(base.timeout)
			.waitForReplicas(base.waitForReplicas)
			.replicaTimeout(base.replicaTimeout)
			.replicaShortfall(base.replicaShortfall)
			.replicaShortfallGrace(base.replicaShortfallGrace);
	}

	/**
	 * The most commands written before one flush; a batch with more is flushed in several
	 * chunks.
	 */
	public int maxCommandsPerChunk() {
		return maxCommandsPerChunk;
	}

	/** How long one batch may wait for all its replies. */
	public Duration timeout() {
		return timeout;
	}

	/**
	 * How many replicas must confirm a batch (Redis {@code WAIT}) before it counts as
	 * written; 0 when the master's replies are enough. A master's acknowledgement does
	 * not survive a failover: the replica it promotes has only what it had replicated,
	 * and the old master drops the rest when it becomes that replica's replica.
	 */
	public int waitForReplicas() {
		return waitForReplicas;
	}

	/**
	 * How long a batch waits for {@link #waitForReplicas()} replicas before it counts as
	 * failed.
	 */
	public Duration replicaTimeout() {
		return replicaTimeout;
	}

	/**
	 * What a batch does, once {@link #replicaShortfallGrace()} has passed, when a master
	 * it writes to has fewer replicas attached than {@link #waitForReplicas()}.
	 */
	public ReplicaShortfallPolicy replicaShortfall() {
		return replicaShortfall;
	}

	/**
	 * How long batches are refused for a master short of replicas before
	 * {@link #replicaShortfall()} decides: longer than the Redis Cluster's
	 * {@code cluster-node-timeout}, so that a master cut off from the others refuses
	 * writes itself before any batch goes on without its replicas.
	 */
	public Duration replicaShortfallGrace() {
		return replicaShortfallGrace;
	}

	public static final class Builder {

		private int maxCommandsPerChunk = DEFAULT_MAX_COMMANDS_PER_CHUNK;

		private Duration timeout = DEFAULT_TIMEOUT;

		private int waitForReplicas = DEFAULT_WAIT_FOR_REPLICAS;

		private Duration replicaTimeout = DEFAULT_REPLICA_TIMEOUT;

		private ReplicaShortfallPolicy replicaShortfall = DEFAULT_REPLICA_SHORTFALL;

		private Duration replicaShortfallGrace = DEFAULT_REPLICA_SHORTFALL_GRACE;

		private Builder() {
		}

		public Builder maxCommandsPerChunk(int maxCommandsPerChunk) {
			if (maxCommandsPerChunk < 1) {
				throw new IllegalArgumentException(
						"maxCommandsPerChunk must be at least 1, but was " + maxCommandsPerChunk);
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

		public Builder waitForReplicas(int waitForReplicas) {
			if (waitForReplicas < 0) {
				throw new IllegalArgumentException("waitForReplicas must be 0 or more, but was " + waitForReplicas);
			}
			this.waitForReplicas = waitForReplicas;
			return this;
		}

		public Builder replicaTimeout(Duration replicaTimeout) {
			if (replicaTimeout == null || replicaTimeout.isNegative() || replicaTimeout.isZero()) {
				throw new IllegalArgumentException("replicaTimeout must be positive, but was " + replicaTimeout);
			}
			this.replicaTimeout = replicaTimeout;
			return this;
		}

		public Builder replicaShortfall(ReplicaShortfallPolicy replicaShortfall) {
			if (replicaShortfall == null) {
				throw new IllegalArgumentException("replicaShortfall must be proceed or refuse, but was null");
			}
			this.replicaShortfall = replicaShortfall;
			return this;
		}

		public Builder replicaShortfallGrace(Duration replicaShortfallGrace) {
			if (replicaShortfallGrace == null || replicaShortfallGrace.isNegative()) {
				throw new IllegalArgumentException(
						"replicaShortfallGrace must be 0 or more, but was " + replicaShortfallGrace);
			}
			this.replicaShortfallGrace = replicaShortfallGrace;
			return this;
		}

		public PipelineConfig build() {
			if (waitForReplicas > 0 && replicaTimeout.compareTo(timeout) >= 0) {
				throw new IllegalArgumentException("replicaTimeout must be shorter than timeout (" + timeout
						+ ") so that a batch can wait for its replicas, but was " + replicaTimeout);
			}
			return new PipelineConfig(this);
		}

	}

}
