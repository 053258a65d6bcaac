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

/**
 * Immutable configuration of the {@link DeadLetterBrake}. Build with {@link #custom()};
 * invalid values fail at once with a message naming the value.
 * <p>
 * The defaults suit a service at about a billion records a day: sporadic poison (a few
 * records in a thousand) never trips it, while a bug that fails every record trips it
 * after at most {@link #deadLettersToTrip()} dead letters of one partition, or a minute
 * with more than {@link #DEFAULT_MAX_PER_MINUTE} across the instance, whichever comes
 * first. An engaged brake releases itself after {@link #DEFAULT_RELEASE_AFTER} (longer
 * for each automatic release in a row), so a cause that went away does not need an
 * operator; one that persists engages it again after the same bound.
 */
public final class DeadLetterBrakeConfig {

	/** The last records of a partition looked at, by offset. */
	public static final int DEFAULT_WINDOW = 1_000;

	/** Share of the window's records that, dead-lettered, trips the brake. */
	public static final double DEFAULT_MAX_RATIO = 0.5;

	/**
	 * Dead letters within a minute, on one instance, above which the brake trips; 0 = no
	 * such limit.
	 */
	public static final int DEFAULT_MAX_PER_MINUTE = 10_000;

	/**
	 * How long the brake stays engaged before it releases itself; {@link Duration#ZERO}:
	 * only an operator releases it.
	 */
	public static final Duration DEFAULT_RELEASE_AFTER = Duration.ofMinutes(15);

	/** The most an automatic release's wait grows, as a multiple of the first. */
	public static final int MAX_RELEASE_BACKOFF = 8;

	private final int window;

	private final double maxRatio;

	private final int maxPerMinute;

	private final Duration releaseAfter;

	private DeadLetterBrakeConfig(Builder builder) {
		this.window = builder.window;
		this.maxRatio = builder.maxRatio;
		this.maxPerMinute = builder.maxPerMinute;
		this.releaseAfter = builder.releaseAfter;
	}

	public static DeadLetterBrakeConfig ofDefaults() {
		return custom().build();
	}

	public static Builder custom() {
		return new Builder();
	}

	/**
	 * How many of a partition's most recent records (by offset) the ratio is taken over.
	 */
	public int window() {
		return window;
	}

	/** The share of {@link #window()} that, dead-lettered, trips the brake. */
	public double maxRatio() {
		return maxRatio;
	}

	/**
	 * The most dead letters one instance publishes within a minute; 0 when there is no
	 * such limit.
	 */
	public int maxPerMinute() {
		return maxPerMinute;
	}

	/**
	 * How long the brake stays engaged before it releases itself, doubled for each
	 * automatic release in a row, up to {@link #MAX_RELEASE_BACKOFF} times; zero when
	 * only an operator releases it.
	 */
	public Duration releaseAfter() {
		return releaseAfter;
	}

	/**
	 * Dead letters among a partition's last {@link #window()} records that trip the
	 * brake: {@code ceil(maxRatio × window)}.
	 */
	public int deadLettersToTrip() {
		return (int) Math.max(1, Math.ceil(maxRatio * window - 1e-9));
	}

	public static final class Builder {

		private int window = DEFAULT_WINDOW;

		private double maxRatio = DEFAULT_MAX_RATIO;

		private int maxPerMinute = DEFAULT_MAX_PER_MINUTE;

		private Duration releaseAfter = DEFAULT_RELEASE_AFTER;

		private Builder() {
		}

		public Builder window(int window) {
			if (window < 1 || window > 1_000_000) {
				throw new IllegalArgumentException("window must be between 1 and 1000000 records, but was " + window);
			}
			this.window = window;
			return this;
		}

		public Builder maxRatio(double maxRatio) {
			if (!(maxRatio > 0 && maxRatio <= 1)) {
				throw new IllegalArgumentException(
						"maxRatio must be greater than 0 and at most 1, but was " + maxRatio);
			}
			this.maxRatio = maxRatio;
			return this;
		}

		public Builder maxPerMinute(int maxPerMinute) {
			if (maxPerMinute < 0) {
				throw new IllegalArgumentException(
						"maxPerMinute must be 0 (no limit) or more, but was " + maxPerMinute);
			}
			this.maxPerMinute = maxPerMinute;
			return this;
		}

		public Builder releaseAfter(Duration releaseAfter) {
			if (releaseAfter == null || releaseAfter.isNegative()) {
				throw new IllegalArgumentException(
						"releaseAfter must be 0 (only an operator releases) or more, but was " + releaseAfter);
			}
			this.releaseAfter = releaseAfter;
			return this;
		}

		public DeadLetterBrakeConfig build() {
			return new DeadLetterBrakeConfig(this);
		}

	}

}
