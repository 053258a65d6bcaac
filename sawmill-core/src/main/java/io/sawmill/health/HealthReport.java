package io.sawmill.health;

import java.util.Map;

/**
 * The outcome of one Sawmill health check, free of any health framework; the auto-configuration
 * maps it onto Spring Boot's {@code Health}.
 *
 * @param up whether the checked part works
 * @param details what the check saw, in insertion order
 */
public record HealthReport(boolean up, Map<String, Object> details) {

	public HealthReport {
		details = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(details));
	}
}
