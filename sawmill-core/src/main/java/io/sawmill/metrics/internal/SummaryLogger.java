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
package io.sawmill.metrics.internal;

import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import io.micrometer.core.instrument.distribution.ValueAtPercentile;

/**
 * One INFO line every {@code interval} with what an operator looks at first: records/s
 * since the last line, lag (records, and the oldest uncommitted record's age), the recent
 * batch P99 and the last Redis RTT. With structured logging the numbers are also
 * key-value fields of the event ({@code records_per_second}, {@code lag_records},
 * {@code lag_seconds}, {@code batch_p99_ms}, {@code redis_rtt_ms}).
 * <p>
 * Runs on a daemon thread of its own; {@link #summarize()} is called from that thread
 * only.
 */
public final class SummaryLogger implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(SummaryLogger.class);

	private final SawmillMetrics metrics;

	private final @Nullable PartitionLagMonitor lag;

	private final @Nullable RedisRoundTripProbe rtt;

	private final Duration interval;

	private final Clock clock;

	private double lastRecords;

	private long lastMillis;

	private final PeriodicTask task;

	/**
	 * @param lag null when no lag is measured
	 * @param rtt null when no RTT is measured
	 */
	public SummaryLogger(SawmillMetrics metrics, @Nullable PartitionLagMonitor lag, @Nullable RedisRoundTripProbe rtt,
			Duration interval, Clock clock) {
		if (interval.isNegative() || interval.isZero()) {
			throw new IllegalArgumentException("interval must be greater than 0, but was " + interval);
		}
		this.metrics = metrics;
		this.lag = lag;
		this.rtt = rtt;
		this.interval = interval;
		this.task = new PeriodicTask("sawmill-summary", this::summarizeQuietly, interval, interval);
		this.clock = clock;
		this.lastRecords = metrics.recordsHandled();
		this.lastMillis = clock.millis();
	}

	/** Builds the line for the time since the previous call, and logs it. */
	public String summarize() {
		long now = clock.millis();
		double records = metrics.recordsHandled();
		double perSecond = now > lastMillis ? (records - lastRecords) * 1000.0 / (now - lastMillis) : 0;
		lastRecords = records;
		lastMillis = now;
		long lagRecords = lag != null ? lag.totalLag() : 0;
		double lagSeconds = lag != null ? lag.maxLagSeconds() : 0;
		double p99 = batchP99Millis();
		double rttMillis = rtt != null ? rtt.lastRoundTripSeconds() * 1000 : Double.NaN;
		String line = String.format(Locale.ROOT,
				"Sawmill %s: %,.1f records/s, lag %,d records (oldest %.1f s), batch P99 %s, Redis RTT %s",
				metrics.group(), perSecond, lagRecords, lagSeconds, millis(p99), millis(rttMillis));
		log.atInfo()
			.setMessage(line)
			.addKeyValue("group", metrics.group())
			.addKeyValue("records_per_second", perSecond)
			.addKeyValue("lag_records", lagRecords)
			.addKeyValue("lag_seconds", lagSeconds)
			.addKeyValue("batch_p99_ms", p99)
			.addKeyValue("redis_rtt_ms", rttMillis)
			.log();
		return line;
	}

	private double batchP99Millis() {
		if (metrics.batchDuration().count() == 0) {
			return Double.NaN;
		}
		for (ValueAtPercentile percentile : metrics.batchDuration().takeSnapshot().percentileValues()) {
			if (percentile.percentile() == 0.99) {
				return percentile.value(TimeUnit.MILLISECONDS);
			}
		}
		return Double.NaN;
	}

	private static String millis(double value) {
		return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.2f ms", value);
	}

	@Override
	public void start() {
		task.start();
	}

	private void summarizeQuietly() {
		try {
			summarize();
		}
		catch (RuntimeException ex) {
			log.debug("Summary line failed", ex);
		}
	}

	@Override
	public void stop() {
		task.stop(Duration.ZERO);
	}

	@Override
	public boolean isRunning() {
		return task.isRunning();
	}

}
