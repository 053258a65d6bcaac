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
package io.sawmill.mapping.route.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;

import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RecordMappingException;
import io.sawmill.mapping.RedisWrite;

/**
 * The {@link RecordMapper} of a service with several routes: each record is mapped by the
 * route that names its topic; a topic no route names goes to the first route (in
 * configuration order) whose {@link RouteConfig#topicPattern() topic pattern} matches it.
 * A topic named by one route and matched by another's pattern is rejected by {@link #of};
 * a topic that only appears later and matches two patterns goes to the first. All routes
 * share one consumer group and one listener container, so the listener's batching,
 * retries and offset commits are the same for every route. Thread-safe; create with
 * {@link #of(List)}.
 */
public final class Routes implements RecordMapper {

	private final List<RouteConfig> routes;

	private final Map<String, RouteMapper> byTopic;

	private final List<RouteMapper> byPattern;

	private final Map<String, RouteMapper> matched = new ConcurrentHashMap<>();

	private Routes(List<RouteConfig> routes, Map<String, RouteMapper> byTopic, List<RouteMapper> byPattern) {
		this.routes = routes;
		this.byTopic = byTopic;
		this.byPattern = byPattern;
	}

	/**
	 * @throws IllegalArgumentException when two routes share a name or a topic, a topic
	 * one route names matches another route's topic pattern, or a route's value format
	 * cannot be set up (an invalid Avro schema, a deserializer class that cannot be
	 * created)
	 */
	public static Routes of(List<RouteConfig> routes) {
		if (routes.isEmpty()) {
			throw new IllegalArgumentException("routes must name at least one route, but was empty");
		}
		Map<String, RouteMapper> byTopic = new HashMap<>();
		Map<String, String> names = new HashMap<>();
		List<RouteMapper> byPattern = new ArrayList<>();
		for (RouteConfig route : routes) {
			if (names.put(route.name(), route.name()) != null) {
				throw new IllegalArgumentException(
						"route names must be unique, but '" + route.name() + "' is used twice");
			}
			RouteMapper mapper = new RouteMapper(route);
			if (route.topicPattern() != null) {
				byPattern.add(mapper);
			}
			for (String topic : route.topics()) {
				RouteMapper other = byTopic.put(topic, mapper);
				if (other != null) {
					throw new IllegalArgumentException("topic '" + topic + "' is read by routes '"
							+ other.config().name() + "' and '" + route.name() + "'; a topic belongs to one route");
				}
			}
		}
		for (RouteMapper patterned : byPattern) {
			byTopic.forEach((topic, named) -> {
				if (pattern(patterned).matcher(topic).matches()) {
					throw new IllegalArgumentException("topic '" + topic + "' of route '" + named.config().name()
							+ "' matches topic-pattern '" + patterned.config().topicPattern() + "' of route '"
							+ patterned.config().name() + "'; a topic belongs to one route");
				}
			});
		}
		return new Routes(List.copyOf(routes), Map.copyOf(byTopic), List.copyOf(byPattern));
	}

	@Override
	public List<RedisWrite> map(ConsumerRecord<byte[], byte[]> record) {
		RouteMapper route = byTopic.get(record.topic());
		if (route == null) {
			route = matched.computeIfAbsent(record.topic(), this::firstPatternMatching);
		}
		if (route == null) {
			throw new RecordMappingException("no route reads topic '" + record.topic() + "'");
		}
		return route.map(record);
	}

	private @Nullable RouteMapper firstPatternMatching(String topic) {
		return byPattern.stream().filter(r -> pattern(r).matcher(topic).matches()).findFirst().orElse(null);
	}

	/**
	 * The topic pattern of a route in {@code byPattern}, which holds only routes with
	 * one.
	 */
	private static Pattern pattern(RouteMapper patterned) {
		return Objects.requireNonNull(patterned.config().topicPattern(), "a route in byPattern has a topic-pattern");
	}

	public List<RouteConfig> routes() {
		return routes;
	}

	/**
	 * Every route's named topics, in the order of the routes (topics a pattern matches
	 * are not among them).
	 */
	public List<String> topics() {
		List<String> topics = new ArrayList<>();
		routes.forEach(route -> topics.addAll(route.topics()));
		return topics;
	}

	/** The dead-letter topic of each source topic whose route names its own. */
	public Map<String, String> deadLetterTopics() {
		Map<String, String> topics = new LinkedHashMap<>();
		for (RouteConfig route : routes) {
			if (route.deadLetterTopic() != null) {
				route.topics().forEach(topic -> topics.put(topic, route.deadLetterTopic()));
			}
		}
		return topics;
	}

}
