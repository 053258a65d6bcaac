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
package io.sawmill.health.internal;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sawmill.metrics.internal.RedisRoundTripProbe;
import io.sawmill.redis.internal.ReplicaShortfall;
import io.sawmill.redis.internal.ReplicaShortfalls;

/**
 * Whether Redis answers on the writing path: one PING through the
 * {@link RedisRoundTripProbe}, which uses the writer's own Lettuce client (same endpoint,
 * TLS, credentials and event loop). Spring Data Redis' own {@code redis} health check
 * goes through a different, shared connection.
 * <p>
 * The masters short of replicas ({@link ReplicaShortfalls}) are listed under
 * {@code replicaShortfalls} without changing the status: Redis answers, and a restart of
 * Sawmill attaches no replica.
 */
public final class RedisWritePathHealth {

	private final RedisRoundTripProbe probe;

	private final ReplicaShortfalls shortfalls;

	public RedisWritePathHealth(RedisRoundTripProbe probe) {
		this(probe, ReplicaShortfalls.none());
	}

	public RedisWritePathHealth(RedisRoundTripProbe probe, ReplicaShortfalls shortfalls) {
		this.probe = probe;
		this.shortfalls = shortfalls;
	}

	public HealthReport check() {
		Map<String, Object> details = new LinkedHashMap<>();
		List<ReplicaShortfall> masters = shortfalls.current();
		if (!masters.isEmpty()) {
			details.put("replicaShortfalls", masters.stream().map(ReplicaShortfall::details).toList());
		}
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
