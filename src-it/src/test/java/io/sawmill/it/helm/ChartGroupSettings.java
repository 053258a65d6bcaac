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
package io.sawmill.it.helm;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Kafka consumer-group settings the chart's default render gives the sawmill
 * container, as Spring properties, so that a test outside the chart's package runs the
 * service exactly as the chart would.
 */
public final class ChartGroupSettings {

	private static final Map<String, String> ENV_TO_PROPERTY = Map.of(
			"SPRING_KAFKA_CONSUMER_PROPERTIES_SESSION_TIMEOUT_MS",
			"spring.kafka.consumer.properties[session.timeout.ms]",
			"SPRING_KAFKA_CONSUMER_PROPERTIES_HEARTBEAT_INTERVAL_MS",
			"spring.kafka.consumer.properties[heartbeat.interval.ms]");

	private ChartGroupSettings() {
	}

	/**
	 * {@code session.timeout.ms} and {@code heartbeat.interval.ms} as the default render
	 * sets them.
	 */
	public static Map<String, Object> defaults() {
		SawmillChart.Manifests manifests = SawmillChart.render("defaults");
		Map<String, Object> properties = new LinkedHashMap<>();
		ENV_TO_PROPERTY.forEach((env, property) -> {
			String value = manifests.envValue(env);
			if (value == null) {
				throw new AssertionError("the chart's default render does not set " + env);
			}
			properties.put(property, Integer.parseInt(value));
		});
		return properties;
	}

}
