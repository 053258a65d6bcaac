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

import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The lag gauges of one partition and the values behind them. Written by the lag
 * monitor's thread, read by scrapes (which may have the monitor read them again first).
 */
final class PartitionLag {

	/** No record waits: the partition is caught up. */
	private static final long CAUGHT_UP = -1;

	/** Records wait but their timestamp is not known (yet). */
	private static final long UNKNOWN = Long.MIN_VALUE;

	private final Clock clock;

	private final Gauge recordsGauge;

	private final @Nullable Gauge secondsGauge;

	private volatile long records;

	private volatile long committedOffset = -1;

	volatile long oldestTimestamp = CAUGHT_UP;

	/**
	 * @param beforeRead run by each gauge read before it takes the value, to have the
	 * values read again when they are old
	 */
	PartitionLag(SawmillMetrics metrics, TopicPartition partition, boolean withSeconds, Clock clock,
			Runnable beforeRead) {
		this.clock = clock;
		String[] tags = { "topic", partition.topic(), "partition", Integer.toString(partition.partition()), "group",
				metrics.group() };
		this.recordsGauge = Gauge.builder("sawmill.lag.records", this, lag -> {
			beforeRead.run();
			return lag.records();
		})
			.description("Records behind: log-end offset minus committed offset")
			.tags(tags)
			.baseUnit("records")
			.register(metrics.registry());
		this.secondsGauge = withSeconds ? Gauge.builder("sawmill.lag.seconds", this, lag -> {
			beforeRead.run();
			return lag.seconds();
		})
			.description("Age of the oldest record not yet committed; 0 when caught up")
			.tags(tags)
			.baseUnit("seconds")
			.register(metrics.registry()) : null;
	}

	/**
	 * @param oldest the timestamp of the record at {@code committed}, or null when there
	 * is no lag or it could not be read (then the last one read for this offset stays)
	 */
	void update(long lag, long committed, @Nullable Long oldest) {
		if (lag == 0) {
			oldestTimestamp = CAUGHT_UP;
		}
		else if (oldest != null) {
			oldestTimestamp = oldest;
		}
		else if (committed != committedOffset || oldestTimestamp == CAUGHT_UP) {
			oldestTimestamp = UNKNOWN;
		}
		committedOffset = committed;
		records = lag;
	}

	boolean knowsTimestampAt(long offset) {
		return offset == committedOffset && oldestTimestamp != UNKNOWN && oldestTimestamp != CAUGHT_UP;
	}

	long records() {
		return records;
	}

	/**
	 * Now minus the oldest uncommitted record's timestamp; 0 when caught up; NaN when
	 * unknown.
	 */
	double seconds() {
		long oldest = oldestTimestamp;
		if (oldest == CAUGHT_UP) {
			return 0;
		}
		if (oldest == UNKNOWN) {
			return Double.NaN;
		}
		return Math.max(0, clock.millis() - oldest) / 1000.0;
	}

	void remove(MeterRegistry registry) {
		registry.remove(recordsGauge);
		if (secondsGauge != null) {
			registry.remove(secondsGauge);
		}
	}

}
