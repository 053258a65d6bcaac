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
package io.sawmill.doctor.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import io.sawmill.redis.ReplicaShortfallPolicy;
import io.sawmill.redis.internal.PipelineConfig;

/**
 * What the doctor compares its measurements with. Immutable; built with
 * {@link #custom()}. Unset values that only the operator knows (this pod's zone, the
 * Redis master's zone, the number of replicas) turn the findings that need them into
 * {@link Verdict#UNKNOWN}, never into errors.
 */
public final class DoctorConfig {

	/** The root under which {@code proc/...} and {@code sys/...} are read. */
	public static final Path DEFAULT_HOST_ROOT = Path.of("/");

	/** PINGs to Redis per examination; the finding reports their median. */
	public static final int DEFAULT_PINGS = 5;

	/**
	 * How long one Redis or Kafka request may take before its finding is
	 * {@link Verdict#UNKNOWN}.
	 */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

	private final Path hostRoot;

	private final @Nullable String zone;

	private final @Nullable String redisZone;

	private final @Nullable Pattern redisZonePattern;

	private final @Nullable Integer replicas;

	private final List<String> topics;

	private final @Nullable Pattern topicPattern;

	private final int concurrency;

	private final boolean sharedPartitions;

	private final int waitForReplicas;

	private final ReplicaShortfallPolicy replicaShortfall;

	private final Duration replicaShortfallGrace;

	private final @Nullable String clientRack;

	private final int pings;

	private final Duration timeout;

	private DoctorConfig(Builder b) {
		this.hostRoot = b.hostRoot;
		this.zone = b.zone;
		this.redisZone = b.redisZone;
		this.redisZonePattern = b.redisZonePattern;
		this.replicas = b.replicas;
		this.topics = b.topics;
		this.topicPattern = b.topicPattern;
		this.concurrency = b.concurrency;
		this.sharedPartitions = b.sharedPartitions;
		this.waitForReplicas = b.waitForReplicas;
		this.replicaShortfall = b.replicaShortfall;
		this.replicaShortfallGrace = b.replicaShortfallGrace;
		this.clientRack = b.clientRack;
		this.pings = b.pings;
		this.timeout = b.timeout;
	}

	public static Builder custom() {
		return new Builder();
	}

	public static DoctorConfig ofDefaults() {
		return custom().build();
	}

	/**
	 * Root of {@code proc/} and {@code sys/}: {@code /} on a real host, a fixture
	 * directory in tests.
	 */
	public Path hostRoot() {
		return hostRoot;
	}

	/** This pod's zone (e.g. from the node label {@code topology.kubernetes.io/zone}). */
	public Optional<String> zone() {
		return Optional.ofNullable(zone);
	}

	/** The zone of the Redis master as configured, for every master. */
	public Optional<String> redisZone() {
		return Optional.ofNullable(redisZone);
	}

	/**
	 * A pattern whose first group is the zone in a Redis master's host name; used when
	 * {@link #redisZone()} is not set.
	 */
	public Optional<Pattern> redisZonePattern() {
		return Optional.ofNullable(redisZonePattern);
	}

	/** How many instances of the service consume the topics; empty when unknown. */
	public OptionalInt replicas() {
		return replicas == null ? OptionalInt.empty() : OptionalInt.of(replicas);
	}

	public List<String> topics() {
		return topics;
	}

	/**
	 * The pattern the service subscribes with when a route has {@code topic-pattern}: the
	 * topics it matches are consumed too (it covers {@link #topics()}).
	 */
	public Optional<Pattern> topicPattern() {
		return Optional.ofNullable(topicPattern);
	}

	/** Listener threads per instance ({@code sawmill.concurrency}). */
	public int concurrency() {
		return concurrency;
	}

	/**
	 * Whether the consumers share partitions: a share group
	 * ({@code sawmill.consumption.mode=share}) rather than a consumer group.
	 */
	public boolean sharedPartitions() {
		return sharedPartitions;
	}

	/** Replicas each batch waits for ({@code sawmill.pipeline.wait-for-replicas}). */
	public int waitForReplicas() {
		return waitForReplicas;
	}

	/**
	 * What batches do for a master short of replicas past the grace
	 * ({@code sawmill.pipeline.replica-shortfall}).
	 */
	public ReplicaShortfallPolicy replicaShortfall() {
		return replicaShortfall;
	}

	/**
	 * How long a master short of replicas is refused first
	 * ({@code sawmill.pipeline.replica-shortfall-grace}).
	 */
	public Duration replicaShortfallGrace() {
		return replicaShortfallGrace;
	}

	/** The consumer's {@code client.rack}; empty when not set. */
	public Optional<String> clientRack() {
		return Optional.ofNullable(clientRack);
	}

	public int pings() {
		return pings;
	}

	public Duration timeout() {
		return timeout;
	}

	public static final class Builder {

		private Path hostRoot = DEFAULT_HOST_ROOT;

		private @Nullable String zone;

		private @Nullable String redisZone;

		private @Nullable Pattern redisZonePattern;

		private @Nullable Integer replicas;

		private List<String> topics = List.of();

		private @Nullable Pattern topicPattern;

		private int concurrency = 1;

		private boolean sharedPartitions;

		private int waitForReplicas;

		private ReplicaShortfallPolicy replicaShortfall = PipelineConfig.DEFAULT_REPLICA_SHORTFALL;

		private Duration replicaShortfallGrace = PipelineConfig.DEFAULT_REPLICA_SHORTFALL_GRACE;

		private @Nullable String clientRack;

		private int pings = DEFAULT_PINGS;

		private Duration timeout = DEFAULT_TIMEOUT;

		private Builder() {
		}

		public Builder hostRoot(Path hostRoot) {
			if (hostRoot == null) {
				throw new IllegalArgumentException("hostRoot must not be null");
			}
			this.hostRoot = hostRoot;
			return this;
		}

		/** Blank means unknown. */
		public Builder zone(@Nullable String zone) {
			this.zone = blankToNull(zone);
			return this;
		}

		/** Blank means unknown. */
		public Builder redisZone(@Nullable String redisZone) {
			this.redisZone = blankToNull(redisZone);
			return this;
		}

		/**
		 * @param regex a regular expression with one capturing group, found (not matched)
		 * in the master's host name, e.g. {@code redis-([a-z]+-[a-z]+-\d[a-z])\.} ; blank
		 * means none
		 */
		public Builder redisZonePattern(@Nullable String regex) {
			if (regex == null || regex.isBlank()) {
				this.redisZonePattern = null;
				return this;
			}
			Pattern pattern;
			try {
				pattern = Pattern.compile(regex);
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException(
						"redisZonePattern must be a regular expression, but was '" + regex + "': " + ex.getMessage());
			}
			if (pattern.matcher("").groupCount() < 1) {
				throw new IllegalArgumentException(
						"redisZonePattern must have a capturing group for the zone, but was '" + regex + "'");
			}
			this.redisZonePattern = pattern;
			return this;
		}

		/** Null means unknown. */
		public Builder replicas(@Nullable Integer replicas) {
			if (replicas != null && replicas < 1) {
				throw new IllegalArgumentException("replicas must be at least 1, but was " + replicas);
			}
			this.replicas = replicas;
			return this;
		}

		public Builder topics(List<String> topics) {
			this.topics = List.copyOf(topics);
			return this;
		}

		/** The subscription pattern of topic-pattern routes; null without one. */
		public Builder topicPattern(@Nullable Pattern topicPattern) {
			this.topicPattern = topicPattern;
			return this;
		}

		public Builder concurrency(int concurrency) {
			if (concurrency < 1) {
				throw new IllegalArgumentException("concurrency must be at least 1, but was " + concurrency);
			}
			this.concurrency = concurrency;
			return this;
		}

		public Builder sharedPartitions(boolean sharedPartitions) {
			this.sharedPartitions = sharedPartitions;
			return this;
		}

		public Builder waitForReplicas(int waitForReplicas) {
			if (waitForReplicas < 0) {
				throw new IllegalArgumentException("waitForReplicas must not be negative, but was " + waitForReplicas);
			}
			this.waitForReplicas = waitForReplicas;
			return this;
		}

		/** The policy and grace of {@code pipeline}'s replica shortfall. */
		public Builder replicaShortfall(PipelineConfig pipeline) {
			this.replicaShortfall = pipeline.replicaShortfall();
			this.replicaShortfallGrace = pipeline.replicaShortfallGrace();
			return this;
		}

		/** Blank means not set. */
		public Builder clientRack(@Nullable String clientRack) {
			this.clientRack = blankToNull(clientRack);
			return this;
		}

		public Builder pings(int pings) {
			if (pings < 1 || pings > 100) {
				throw new IllegalArgumentException("pings must be between 1 and 100, but was " + pings);
			}
			this.pings = pings;
			return this;
		}

		public Builder timeout(Duration timeout) {
			if (timeout == null || timeout.isNegative() || timeout.isZero()) {
				throw new IllegalArgumentException("timeout must be greater than 0, but was " + timeout);
			}
			this.timeout = timeout;
			return this;
		}

		public DoctorConfig build() {
			return new DoctorConfig(this);
		}

		private static @Nullable String blankToNull(@Nullable String value) {
			return value == null || value.isBlank() ? null : value.trim();
		}

	}

}
