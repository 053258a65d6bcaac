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

import java.util.Map;

/**
 * The outcome of one Sawmill health check, free of any health framework; the
 * auto-configuration maps it onto Spring Boot's {@code Health}.
 *
 * @param up whether the checked part works
 * @param details what the check saw, in insertion order
 */
public record HealthReport(boolean up, Map<String, Object> details) {

	public HealthReport {
		details = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(details));
	}
}
