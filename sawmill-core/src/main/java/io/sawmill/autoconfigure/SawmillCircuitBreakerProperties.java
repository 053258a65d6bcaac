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

/**
 * The circuit breaker around Redis that pauses consumption (no rebalance) while Redis
 * fails or is slow.
 */
public class SawmillCircuitBreakerProperties {

	/** Whether a failing or slow Redis pauses the listener containers. */
	private boolean enabled = true;

	/**
	 * Percentage of failed round trips among the last sliding-window ones that opens the
	 * circuit.
	 */
	private float failureRateThreshold = 50;

	/** A round trip slower than this counts as slow. */
	private Duration slowCallDuration = Duration.ofSeconds(2);

	/**
	 * Percentage of slow round trips among the last sliding-window ones that opens the
	 * circuit.
	 */
	private float slowCallRateThreshold = 50;

	/** How many recent round trips the rates are computed over. */
	private int slidingWindow = 10;

	/** How long consumption stays paused before a probe batch is let through. */
	private Duration openWait = Duration.ofSeconds(5);

	public boolean isEnabled() {
		return enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public float getFailureRateThreshold() {
		return failureRateThreshold;
	}

	public void setFailureRateThreshold(float failureRateThreshold) {
		this.failureRateThreshold = failureRateThreshold;
	}

	public Duration getSlowCallDuration() {
		return slowCallDuration;
	}

	public void setSlowCallDuration(Duration slowCallDuration) {
		this.slowCallDuration = slowCallDuration;
	}

	public float getSlowCallRateThreshold() {
		return slowCallRateThreshold;
	}

	public void setSlowCallRateThreshold(float slowCallRateThreshold) {
		this.slowCallRateThreshold = slowCallRateThreshold;
	}

	public int getSlidingWindow() {
		return slidingWindow;
	}

	public void setSlidingWindow(int slidingWindow) {
		this.slidingWindow = slidingWindow;
	}

	public Duration getOpenWait() {
		return openWait;
	}

	public void setOpenWait(Duration openWait) {
		this.openWait = openWait;
	}

}
