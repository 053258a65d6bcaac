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

import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.sawmill.mapping.route.RedisType;
import io.sawmill.mapping.route.ValueFormat;

/**
 * The rules between a route's options, checked once its values are each valid: which
 * options apply to which {@link RedisType}, which a type needs, and which
 * {@link ValueFormat} can feed which type. A pure function of the options a route sets,
 * by their name in YAML. Each broken rule is an {@link IllegalArgumentException} naming
 * the route, the option as written in YAML, and the value.
 */
final class RouteRules {

	private static final Set<RedisType> WITH_MEMBER = EnumSet.of(RedisType.SET, RedisType.SORTED_SET);

	/** Each option that applies to some types only, in the order they are checked. */
	private static final Map<String, Set<RedisType>> ONLY_FOR = onlyFor();

	private RouteRules() {
	}

	/**
	 * @param set every option the route sets to other than its default, by its name in
	 * YAML
	 * @param usesValueFields whether the key template or the member reads a field of the
	 * value
	 */
	static void check(String route, RedisType type, ValueFormat format, Map<String, Object> set,
			boolean usesValueFields) {
		ONLY_FOR.forEach((option, types) -> {
			if (set.containsKey(option) && !types.contains(type)) {
				throw invalid(route, option, set.get(option),
						"applies to type " + String.join(" or ", types.stream().map(Enum::name).toList())
								+ " only, and this route's type is " + type);
			}
		});
		if (WITH_MEMBER.contains(type) && !set.containsKey("member")) {
			throw invalid(route, "member", null, "must be set for type " + type + ", e.g. '{@key}' or '{productId}'");
		}
		if (type == RedisType.SORTED_SET && !set.containsKey("score-field")) {
			throw invalid(route, "score-field", null, "must be set for type SORTED_SET, e.g. 'score'");
		}
		if (set.containsKey("ttl-field") && set.containsKey("ttl-header")) {
			throw invalid(route, "ttl-header", set.get("ttl-header"),
					"cannot be set together with ttl-field '" + set.get("ttl-field") + "'");
		}
		if (type == RedisType.DELETE
				&& (set.containsKey("ttl") || set.containsKey("ttl-field") || set.containsKey("ttl-header"))) {
			throw invalid(route, "ttl", set.getOrDefault("ttl", Duration.ZERO),
					"type DELETE deletes keys, so it has no TTL");
		}
		checkValueFormat(route, type, format, set, usesValueFields);
	}

	private static void checkValueFormat(String route, RedisType type, ValueFormat format, Map<String, Object> set,
			boolean usesValueFields) {
		switch (format) {
			case STRING -> {
				if (EnumSet.of(RedisType.HASH, RedisType.STREAM, RedisType.SORTED_SET).contains(type)) {
					throw invalid(route, "value-format", format,
							"type " + type + " needs value fields, which a STRING value does not have");
				}
				for (String option : new String[] { "value-field", "ttl-field" }) {
					if (set.containsKey(option)) {
						throw invalid(route, "value-format", format,
								"a STRING value has no field '" + set.get(option) + "'");
					}
				}
				if (usesValueFields) {
					throw invalid(route, "value-format", format, "a STRING value has no fields, so the key-template "
							+ "and member can use {@key}, {@topic} and {@partition} only");
				}
			}
			case AVRO -> {
				if (set.containsKey("avro-schema") == set.containsKey("schema-registry.url")) {
					throw invalid(route, "avro-schema", set.get("avro-schema"),
							"or schema-registry.url must be set for "
									+ "value-format AVRO, one of the two: avro-schema reads unframed Avro of that schema, "
									+ "schema-registry.url registry-framed Avro");
				}
			}
			case PROTOBUF, JSON_SCHEMA -> requireRegistry(route, "value-format", format, set);
			case DESERIALIZER -> {
				if (!set.containsKey("value-deserializer")) {
					throw invalid(route, "value-deserializer", null,
							"must be set for value-format DESERIALIZER (a Kafka Deserializer class)");
				}
			}
			case JSON -> {
			}
		}
		Object keyFormat = set.get("key-format");
		if (keyFormat != null) {
			requireRegistry(route, "key-format", keyFormat, set);
		}
		boolean readsRegistry = keyFormat != null || format == ValueFormat.PROTOBUF || format == ValueFormat.JSON_SCHEMA
				|| (format == ValueFormat.AVRO && !set.containsKey("avro-schema"));
		if (set.containsKey("schema-registry.url") && !readsRegistry) {
			throw invalid(route, "schema-registry.url", String.valueOf(set.get("schema-registry.url")),
					"is read only by value-format AVRO (without avro-schema), PROTOBUF or JSON_SCHEMA, or a "
							+ "key-format other than RAW; this route's value-format is " + format);
		}
	}

	private static void requireRegistry(String route, String option, Object value, Map<String, Object> set) {
		if (!set.containsKey("schema-registry.url")) {
			throw invalid(route, "schema-registry.url", null, "must be set for " + option + " " + value
					+ " (the registry's Confluent-compatible API, e.g. 'http://registry:8081')");
		}
	}

	private static Map<String, Set<RedisType>> onlyFor() {
		Map<String, Set<RedisType>> onlyFor = new LinkedHashMap<>();
		onlyFor.put("member", WITH_MEMBER);
		onlyFor.put("score-field", EnumSet.of(RedisType.SORTED_SET));
		onlyFor.put("value-field", EnumSet.of(RedisType.STRING, RedisType.LIST));
		onlyFor.put("fields", EnumSet.of(RedisType.HASH, RedisType.STREAM));
		onlyFor.put("max-length", EnumSet.of(RedisType.LIST, RedisType.STREAM));
		onlyFor.put("hash-update", EnumSet.of(RedisType.HASH));
		onlyFor.put("null-fields", EnumSet.of(RedisType.HASH));
		return onlyFor;
	}

	static IllegalArgumentException invalid(String route, String option, @Nullable Object value, String why) {
		return new IllegalArgumentException("route '" + route + "': " + option + " " + why + ", but was "
				+ (value instanceof String ? "'" + value + "'" : value));
	}

}
