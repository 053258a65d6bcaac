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
package io.sawmill.admin.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.jspecify.annotations.Nullable;

/**
 * The topics the service reads and the routes that read them, by name: a route with
 * {@code topics} names them, a route with {@code topic-pattern} reads every topic its
 * pattern matches, including topics created later. Routes are added after construction
 * and read on each call.
 */
final class RoutedTopics {

	private final List<String> topics;

	private final Map<String, List<String>> routesByName = new ConcurrentHashMap<>();

	private final Map<String, Pattern> patternRoutesByName = new ConcurrentHashMap<>();

	RoutedTopics(List<String> topics) {
		this.topics = List.copyOf(topics);
	}

	void addRoutes(Map<String, List<String>> routes) {
		routesByName.putAll(routes);
	}

	void addPatternRoutes(Map<String, Pattern> routes) {
		patternRoutesByName.putAll(routes);
	}

	/**
	 * What an operator names: one topic (a named one or one a route's pattern matches), a
	 * route by its name, or every topic when null or blank.
	 * @throws IllegalArgumentException when it is none of these
	 */
	Selection select(@Nullable String topicOrRoute) {
		if (topicOrRoute == null || topicOrRoute.isBlank()) {
			return new Selection(Set.copyOf(topics), Set.copyOf(patternRoutesByName.values()), true);
		}
		if (topics.contains(topicOrRoute) || matchesAPattern(topicOrRoute)) {
			return new Selection(Set.of(topicOrRoute), Set.of(), false);
		}
		if (routesByName.containsKey(topicOrRoute)) {
			return new Selection(Set.copyOf(routesByName.get(topicOrRoute)), Set.of(), false);
		}
		if (patternRoutesByName.containsKey(topicOrRoute)) {
			return new Selection(Set.of(), Set.of(patternRoutesByName.get(topicOrRoute)), false);
		}
		Set<String> routes = new TreeSet<>(routesByName.keySet());
		routes.addAll(patternRoutesByName.keySet());
		throw new IllegalArgumentException("topic must be one of " + topics
				+ (patternRoutesByName.isEmpty() ? ""
						: " or match one of "
								+ patternRoutesByName.values().stream().map(Pattern::pattern).sorted().toList())
				+ (routes.isEmpty() ? "" : " or a route of " + routes) + ", but was '" + topicOrRoute + "'");
	}

	private boolean matchesAPattern(String topic) {
		return patternRoutesByName.values().stream().anyMatch(pattern -> pattern.matcher(topic).matches());
	}

	/**
	 * The name of the route that reads {@code topic}, or null when the service has no
	 * routes.
	 */
	@Nullable String routeOf(String topic) {
		for (Map.Entry<String, List<String>> route : routesByName.entrySet()) {
			if (route.getValue().contains(topic)) {
				return route.getKey();
			}
		}
		for (Map.Entry<String, Pattern> route : patternRoutesByName.entrySet()) {
			if (route.getValue().matcher(topic).matches()) {
				return route.getKey();
			}
		}
		return null;
	}

	/**
	 * The named topics and, when a route has a pattern, every topic on the broker that it
	 * matches now.
	 */
	List<String> current(Admin admin, Duration timeout) throws Exception {
		if (patternRoutesByName.isEmpty()) {
			return topics;
		}
		Set<String> all = new TreeSet<>(topics);
		admin.listTopics()
			.names()
			.get(timeout.toMillis(), TimeUnit.MILLISECONDS)
			.stream()
			.filter(this::matchesAPattern)
			.forEach(all::add);
		return new ArrayList<>(all);
	}

	/**
	 * Topics by name and by pattern; a pattern covers the topics it matches when the
	 * selection is applied, so a topic created later is covered too.
	 *
	 * @param everything whether the operator named no topic: every topic of the service
	 */
	record Selection(Set<String> topics, Set<Pattern> patterns, boolean everything) {

		boolean covers(String topic) {
			return everything || topics.contains(topic)
					|| patterns.stream().anyMatch(pattern -> pattern.matcher(topic).matches());
		}

		/** The topics by name, then each pattern as {@code topics matching <regex>}. */
		Set<String> describe() {
			Set<String> described = new TreeSet<>(topics);
			patterns.forEach(pattern -> described.add(describe(pattern)));
			return described;
		}

		static String describe(Pattern pattern) {
			return "topics matching " + pattern.pattern();
		}

	}

}
