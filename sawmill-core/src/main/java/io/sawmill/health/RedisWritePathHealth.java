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
package io.sawmill.health;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.sawmill.metrics.RedisRoundTripProbe;

/**
 * Whether Redis answers on the writing path: one PING through the
 * {@link RedisRoundTripProbe}, which uses the writer's own Lettuce client (same endpoint,
 * TLS, credentials and event loop). Spring Data Redis' own {@code redis} health check
 * goes through a different, shared connection.
 */
public final class RedisWritePathHealth {

	private final RedisRoundTripProbe probe;

	public RedisWritePathHealth(RedisRoundTripProbe probe) {
		this.probe = probe;
	}

	public HealthReport check() {
		Map<String, Object> details = new LinkedHashMap<>();
		try {
			Duration rtt = probe.ping();
			details.put("rttMillis", rtt.toNanos() / 1e6);
			return new HealthReport(true, details);
		}
		catch (RuntimeException ex) {
			details.put("error", ex.getMessage());
			return new HealthReport(false, details);
		}
	}

}
