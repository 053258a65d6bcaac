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
package io.sawmill.bench.e2e.workload;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A variant of the Sawmill cell in the route comparison ({@code --routes}): the built-in
 * {@code sawmill.mapping} JSON-to-hash path, or one declarative route
 * ({@code sawmill.routes[0]}) of one Redis type over the benchmark's topic, as the Spring
 * properties that configure it. Every variant reads the same records
 * ({@code {"id":"…","version":n,"f1":"…",…}}, Kafka key = id) and sets the run's TTL on
 * what it writes (but {@code DELETE}, which writes nothing to expire). The keys: one per
 * id ({@code rec:{id}}, as the mapping path) for the hash, string, list and delete
 * routes; one per topic ({@code board:}, {@code members:}, {@code events:} + topic) for
 * the sorted set, set and stream, whose members or entries are the records.
 */
public enum Route {

	/**
	 * The built-in JSON-to-hash path ({@code sawmill.topics}, {@code sawmill.mapping.*}):
	 * HSET + EXPIRE. The baseline.
	 */
	MAPPING(null, Map.of()),

	/**
	 * {@code type: HASH}, {@code hash-update: MERGE}: HSET + EXPIRE, as the mapping path.
	 */
	HASH("HASH", Map.of("key-template", Workload.KEY_TEMPLATE)),

	/**
	 * {@code type: HASH}, {@code hash-update: REPLACE}: DEL tmp, HSET tmp, RENAME tmp
	 * key, EXPIRE.
	 */
	HASH_REPLACE("HASH", Map.of("key-template", Workload.KEY_TEMPLATE, "hash-update", "REPLACE")),

	/** {@code type: STRING}: SET key value PX ttl, the record's whole JSON value. */
	STRING("STRING", Map.of("key-template", Workload.KEY_TEMPLATE)),

	/**
	 * {@code type: SORTED_SET}: ZADD board:topic version id + EXPIRE; one key, a member
	 * per id.
	 */
	SORTED_SET("SORTED_SET", Map.of("key-template", "board:{@topic}", "member", "{@key}", "score-field", "version")),

	/** {@code type: SET}: SADD members:topic id + EXPIRE; one key, a member per id. */
	SET("SET", Map.of("key-template", "members:{@topic}", "member", "{@key}")),

	/** {@code type: LIST}: LPUSH rec:id value, LTRIM to {@value #LIST_CAP}, EXPIRE. */
	LIST("LIST", Map.of("key-template", Workload.KEY_TEMPLATE, "max-length", Integer.toString(Route.LIST_CAP))),

	/**
	 * {@code type: STREAM}: XADD events:topic MAXLEN ~ {@value #STREAM_CAP} * field value
	 * … + EXPIRE; one key.
	 */
	STREAM("STREAM", Map.of("key-template", "events:{@topic}", "max-length", Integer.toString(Route.STREAM_CAP))),

	/** {@code type: DELETE}: DEL rec:id; leaves nothing. */
	DELETE("DELETE", Map.of("key-template", Workload.KEY_TEMPLATE));

	/**
	 * The LIST route's {@code max-length}: each id's list keeps its newest two records.
	 */
	public static final int LIST_CAP = 2;

	/** The STREAM route's {@code max-length}. */
	public static final int STREAM_CAP = 10_000;

	/** The route's index and name in the properties. */
	private static final String PREFIX = "sawmill.routes[0].";

	private final String type;

	private final Map<String, String> options;

	Route(String type, Map<String, String> options) {
		this.type = type;
		this.options = options;
	}

	/** "mapping", "hash", "hash-replace", "sorted-set", …, as on the command line. */
	public String label() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	/** Whether this is the built-in mapping path rather than a route. */
	boolean builtIn() {
		return type == null;
	}

	/**
	 * The Spring properties of this variant on top of the cell's: none for the mapping
	 * path (the cell's {@code sawmill.topics} and {@code sawmill.mapping.*} configure
	 * it), else the route, in a stable order, which replace them
	 * ({@link io.sawmill.bench.e2e.run.SawmillRunner}).
	 */
	public Map<String, String> properties(String topic, Duration ttl) {
		if (builtIn()) {
			return Map.of();
		}
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put(PREFIX + "name", label());
		properties.put(PREFIX + "topics", topic);
		properties.put(PREFIX + "type", type);
		options.entrySet()
			.stream()
			.sorted(Map.Entry.comparingByKey())
			.forEach(option -> properties.put(PREFIX + option.getKey(), option.getValue()));
		if (this != DELETE) {
			properties.put(PREFIX + "ttl", ttl.toSeconds() + "s");
		}
		return properties;
	}

	public static Route parse(String value) {
		String label = value.trim().toLowerCase(Locale.ROOT).replace('_', '-');
		return Arrays.stream(values())
			.filter(route -> route.label().equals(label))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("--routes must be among "
					+ Arrays.stream(values()).map(Route::label).collect(Collectors.joining(", ")) + ", but was "
					+ value));
	}

}
