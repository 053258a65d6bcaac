package io.sawmill.health;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.sawmill.metrics.RedisRoundTripProbe;

/**
 * Whether Redis answers on the writing path: one PING through the {@link RedisRoundTripProbe}, which
 * uses the writer's own Lettuce client (same endpoint, TLS, credentials and event loop). Spring Data
 * Redis' own {@code redis} health check goes through a different, shared connection.
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
