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
package io.sawmill.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Sawmill's own metrics ({@code sawmill.metrics.*}). */
public class SawmillMetricsProperties {

	/**
	 * How often lag per partition is read from Kafka between scrapes; a scrape reads this
	 * instance's lag again when the last read is over a second old.
	 */
	private Duration lagInterval = Duration.ofSeconds(15);

	/**
	 * Extra histogram buckets (SLOs) of sawmill.batch.duration and
	 * sawmill.redis.pipeline.duration, e.g. 200ms,1s.
	 */
	private List<Duration> sloBuckets = new ArrayList<>();

	/** How often Redis is PINGed on the writing path's client for sawmill.redis.rtt. */
	private Duration rttInterval = Duration.ofSeconds(5);

	/**
	 * Whether to publish CFS throttling from the container's cgroup cpu.stat, when the
	 * file exists.
	 */
	private boolean cpuThrottling = true;

	/**
	 * Whether to publish sawmill.group.lag.records: the group's lag on every partition of
	 * its topics, read every lag-interval.
	 */
	private boolean groupLag = true;

	private final Summary summary = new Summary();

	public Duration getLagInterval() {
		return lagInterval;
	}

	public void setLagInterval(Duration lagInterval) {
		this.lagInterval = lagInterval;
	}

	public List<Duration> getSloBuckets() {
		return sloBuckets;
	}

	public void setSloBuckets(List<Duration> sloBuckets) {
		this.sloBuckets = sloBuckets;
	}

	public Duration getRttInterval() {
		return rttInterval;
	}

	public void setRttInterval(Duration rttInterval) {
		this.rttInterval = rttInterval;
	}

	public boolean isCpuThrottling() {
		return cpuThrottling;
	}

	public void setCpuThrottling(boolean cpuThrottling) {
		this.cpuThrottling = cpuThrottling;
	}

	public boolean isGroupLag() {
		return groupLag;
	}

	public void setGroupLag(boolean groupLag) {
		this.groupLag = groupLag;
	}

	public Summary getSummary() {
		return summary;
	}

	/** The periodic one-line INFO summary (records/s, lag, batch P99, Redis RTT). */
	public static class Summary {

		/** Whether to log the summary line. */
		private boolean enabled = true;

		/** How often to log it. */
		private Duration interval = Duration.ofMinutes(1);

		public boolean isEnabled() {
			return enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getInterval() {
			return interval;
		}

		public void setInterval(Duration interval) {
			this.interval = interval;
		}

	}

}
