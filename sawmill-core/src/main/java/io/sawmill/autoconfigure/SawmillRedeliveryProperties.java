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

import io.sawmill.listener.internal.ListenerConfig;

/**
 * Polling a batch again that was not committed, and telling when a listener makes no
 * progress.
 */
public class SawmillRedeliveryProperties {

	/**
	 * Wait before a failed batch is polled again; doubles with each consecutive failure,
	 * reset by a commit.
	 */
	private Duration initialBackoff = ListenerConfig.DEFAULT_REDELIVERY_INITIAL_BACKOFF;

	/** Longest wait before a failed batch is polled again. */
	private Duration maxBackoff = ListenerConfig.DEFAULT_REDELIVERY_MAX_BACKOFF;

	/**
	 * A consumer thread whose batches have failed without a commit for this long is
	 * reported stalled.
	 */
	private Duration stallTimeout = ListenerConfig.DEFAULT_STALL_TIMEOUT;

	public Duration getInitialBackoff() {
		return initialBackoff;
	}

	public void setInitialBackoff(Duration initialBackoff) {
		this.initialBackoff = initialBackoff;
	}

	public Duration getMaxBackoff() {
		return maxBackoff;
	}

	public void setMaxBackoff(Duration maxBackoff) {
		this.maxBackoff = maxBackoff;
	}

	public Duration getStallTimeout() {
		return stallTimeout;
	}

	public void setStallTimeout(Duration stallTimeout) {
		this.stallTimeout = stallTimeout;
	}

}
