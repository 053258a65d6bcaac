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

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

import io.sawmill.listener.ConsumptionMode;
import io.sawmill.listener.internal.ListenerConfig;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.json.JsonHashMapper;
import io.sawmill.mapping.route.internal.Routes;

/**
 * What the service will do, said once at start-up: the active mapper (the built-in JSON
 * mapping, the routes, or a {@link RecordMapper} bean of the application's), the topics,
 * the group and the delivery mode, and the settings that are set but have no effect. A
 * {@code RecordMapper} bean beside {@code sawmill.routes} is refused: the routes would
 * silently map nothing. Settings under {@code sawmill.mapping} beside such a bean are
 * named as ignored, in a WARN.
 * <p>
 * Immutable; made once while the context starts.
 */
final class ActiveSetup {

	private static final Logger log = LoggerFactory.getLogger(ActiveSetup.class);

	private static final ConfigurationPropertyName MAPPING = ConfigurationPropertyName.of("sawmill.mapping");

	private final String description;

	private final List<String> ignored;

	private ActiveSetup(String description, List<String> ignored) {
		this.description = description;
		this.ignored = ignored;
	}

	/**
	 * @throws SawmillConfigurationException when routes are configured but a mapper bean
	 * of the application's replaces them
	 */
	static ActiveSetup of(SawmillProperties properties, ListenerConfig listener, RecordMapper mapper,
			Environment environment) {
		boolean builtIn = mapper instanceof JsonHashMapper || mapper instanceof Routes;
		if (!builtIn && !properties.getRoutes().isEmpty()) {
			throw new SawmillConfigurationException(
					"sawmill.routes is set, but the application's RecordMapper bean (" + mapper.getClass().getName()
							+ ") replaces the routes, which would then map nothing",
					"Remove the RecordMapper bean to use the routes, or remove sawmill.routes to use the bean.");
		}
		List<String> ignored = builtIn ? List.of() : setBelow(environment, MAPPING);
		String mapping = !builtIn ? "the application's RecordMapper bean (" + mapper.getClass().getName() + ")"
				: !properties.getRoutes().isEmpty() ? "routes " + properties.getRoutes()
					.stream()
					.map(SawmillProperties.Route::getName)
					.collect(Collectors.joining(", ")) : "the built-in JSON-to-hash mapping";
		String topics = listener.topicPattern() != null ? "topics matching " + listener.topicPattern()
				: "topics " + String.join(", ", listener.topics());
		String shareGroupId = properties.getConsumption().getShareGroupId();
		String group = properties.getConsumption().getMode() == ConsumptionMode.SHARE
				? "share group " + (shareGroupId != null ? shareGroupId : listener.groupId())
				: "group " + listener.groupId();
		String description = "Sawmill maps with " + mapping + ", reads " + topics + " as " + group + ", delivery "
				+ listener.delivery().name().toLowerCase(Locale.ROOT).replace('_', '-');
		return new ActiveSetup(description, ignored);
	}

	/** Logs the setup: INFO, or WARN naming the settings without effect. */
	void log() {
		if (ignored.isEmpty()) {
			log.info("{}", description);
		}
		else {
			log.warn("{}; ignored, as the RecordMapper bean replaces the built-in mapping: {}", description,
					String.join(", ", ignored));
		}
	}

	/** The settings that are set but have no effect. */
	List<String> ignored() {
		return ignored;
	}

	@Override
	public String toString() {
		return description;
	}

	private static List<String> setBelow(Environment environment, ConfigurationPropertyName prefix) {
		Set<String> names = new TreeSet<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.stream().filter(prefix::isAncestorOf).forEach(name -> names.add(name.toString()));
			}
		}
		return List.copyOf(names);
	}

}
