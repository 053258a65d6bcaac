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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import io.sawmill.mapping.internal.KeyTemplate;
import io.sawmill.mapping.registry.internal.SchemaRegistryConfig;
import io.sawmill.mapping.route.HashUpdate;
import io.sawmill.mapping.route.KeyFormat;
import io.sawmill.mapping.route.ListEnd;
import io.sawmill.mapping.route.NullFields;
import io.sawmill.mapping.route.RedisType;
import io.sawmill.mapping.route.ValueFormat;

/**
 * Immutable configuration of one route: which topics it reads, how it reads their values,
 * and which Redis type it writes with which key. Build with {@link #custom(String)};
 * {@link Builder#build()} fails on an invalid or contradictory value with a message
 * naming the route, the option (as written in YAML) and the value. docs/mapping.md
 * describes every option.
 */
public final class RouteConfig {

	private static final String PATH_SEPARATOR = ".";

	private final String name;

	private final List<String> topics;

	private final @Nullable Pattern topicPattern;

	private final RedisType type;

	private final KeyTemplate keyTemplate;

	private final List<String> fields;

	private final Duration ttl;

	private final @Nullable String ttlField;

	private final @Nullable String ttlHeader;

	private final NullFields nullFields;

	private final HashUpdate hashUpdate;

	private final @Nullable String valueField;

	private final @Nullable String scoreField;

	private final @Nullable KeyTemplate member;

	private final ListEnd listEnd;

	private final long maxLength;

	private final ValueFormat valueFormat;

	private final @Nullable String avroSchema;

	private final @Nullable String valueDeserializer;

	private final Map<String, String> valueDeserializerProperties;

	private final KeyFormat keyFormat;

	private final @Nullable SchemaRegistryConfig schemaRegistry;

	private final @Nullable String deadLetterTopic;

	private RouteConfig(Builder b, String keyTemplate) {
		this.name = b.name;
		this.topics = List.copyOf(b.topics);
		this.topicPattern = b.topicPattern;
		this.type = b.type;
		this.keyTemplate = template(b, "key-template", keyTemplate);
		this.fields = List.copyOf(b.fields);
		this.ttl = b.ttl;
		this.ttlField = b.ttlField;
		this.ttlHeader = b.ttlHeader;
		this.nullFields = b.nullFields;
		this.hashUpdate = b.hashUpdate;
		this.valueField = b.valueField;
		this.scoreField = b.scoreField;
		this.member = b.member == null ? null : template(b, "member", b.member);
		this.listEnd = b.listEnd;
		this.maxLength = b.maxLength;
		this.valueFormat = b.valueFormat;
		this.avroSchema = b.avroSchema;
		this.valueDeserializer = b.valueDeserializer;
		this.valueDeserializerProperties = Map.copyOf(b.valueDeserializerProperties);
		this.keyFormat = b.keyFormat;
		this.schemaRegistry = b.schemaRegistry;
		this.deadLetterTopic = b.deadLetterTopic;
	}

	private static KeyTemplate template(Builder b, String option, String source) {
		try {
			return KeyTemplate.parse(source, b.keyEncoding);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("route '" + b.name + "': " + option + " "
					+ Objects.requireNonNull(ex.getMessage(), "KeyTemplate names what is wrong")
						.replaceFirst("^keyTemplate ", ""),
					ex);
		}
	}

	/**
	 * @param name the route's name, used in log lines and errors, e.g. {@code orders}
	 */
	public static Builder custom(String name) {
		return new Builder(name);
	}

	public String name() {
		return name;
	}

	/**
	 * The topics whose records this route maps; a topic belongs to one route only. Empty
	 * when the route has a {@link #topicPattern()}.
	 */
	public List<String> topics() {
		return topics;
	}

	/**
	 * The pattern (a Java regular expression matched against the whole topic name) of the
	 * topics this route maps, or {@code null} when the route names its {@link #topics()}.
	 */
	public @Nullable Pattern topicPattern() {
		return topicPattern;
	}

	public RedisType type() {
		return type;
	}

	/** The Redis key of each record. */
	KeyTemplate keyTemplate() {
		return keyTemplate;
	}

	/**
	 * The top-level value fields written by {@link RedisType#HASH} and
	 * {@link RedisType#STREAM}; empty means all.
	 */
	public List<String> fields() {
		return fields;
	}

	public String pathSeparator() {
		return PATH_SEPARATOR;
	}

	/**
	 * The TTL of every key written, or of records without {@link #ttlField()} /
	 * {@link #ttlHeader()}; zero means none.
	 */
	public Duration ttl() {
		return ttl;
	}

	/** The value field holding a record's TTL in seconds, or null. */
	public @Nullable String ttlField() {
		return ttlField;
	}

	/** The Kafka header holding a record's TTL in seconds (as text), or null. */
	public @Nullable String ttlHeader() {
		return ttlHeader;
	}

	public NullFields nullFields() {
		return nullFields;
	}

	public HashUpdate hashUpdate() {
		return hashUpdate;
	}

	/**
	 * The field written by {@link RedisType#STRING} and {@link RedisType#LIST}, or null
	 * for the whole value.
	 */
	public @Nullable String valueField() {
		return valueField;
	}

	/** The field holding a {@link RedisType#SORTED_SET} member's score. */
	public @Nullable String scoreField() {
		return scoreField;
	}

	/**
	 * The member of a {@link RedisType#SET} or {@link RedisType#SORTED_SET}, or null for
	 * other types.
	 */
	@Nullable KeyTemplate member() {
		return member;
	}

	public ListEnd listEnd() {
		return listEnd;
	}

	/** The cap of a list's or stream's length; zero means none. */
	public long maxLength() {
		return maxLength;
	}

	public ValueFormat valueFormat() {
		return valueFormat;
	}

	/** The Avro schema (JSON) of {@link ValueFormat#AVRO} values, or null. */
	public @Nullable String avroSchema() {
		return avroSchema;
	}

	/**
	 * The Kafka {@code Deserializer} class of {@link ValueFormat#DESERIALIZER}, or null.
	 */
	public @Nullable String valueDeserializer() {
		return valueDeserializer;
	}

	public Map<String, String> valueDeserializerProperties() {
		return valueDeserializerProperties;
	}

	public KeyFormat keyFormat() {
		return keyFormat;
	}

	/**
	 * The registry of registry-framed values ({@link ValueFormat#AVRO} without
	 * {@link #avroSchema()}, {@link ValueFormat#PROTOBUF},
	 * {@link ValueFormat#JSON_SCHEMA}) and keys ({@link #keyFormat()} other than
	 * {@link KeyFormat#RAW}), or null.
	 */
	public @Nullable SchemaRegistryConfig schemaRegistry() {
		return schemaRegistry;
	}

	/**
	 * The route's own dead-letter topic, or null for the default
	 * {@code <source topic><suffix>}.
	 */
	public @Nullable String deadLetterTopic() {
		return deadLetterTopic;
	}

	/**
	 * Whether what a record updates is named by its Kafka key, so Kafka's per-partition
	 * order is the order of its updates: the key template (or, for a set or sorted set,
	 * the member) uses {@code {@key}}. Always true for lists, streams and deletes, whose
	 * result does not depend on the order of records of different partitions beyond what
	 * Kafka defines.
	 */
	public boolean ordersByRecordKey() {
		return switch (type) {
			case LIST, STREAM, DELETE -> true;
			case SET, SORTED_SET -> keyTemplate.usesRecordKey()
					|| Objects.requireNonNull(member, "RouteRules requires a member of a set").usesRecordKey();
			case HASH, STRING -> keyTemplate.usesRecordKey();
		};
	}

	/** The key template as configured. */
	public String keyTemplateSource() {
		return keyTemplate.source();
	}

	/**
	 * The options this route sets to other than their default, by their name in YAML, for
	 * {@link RouteRules}.
	 */
	private Map<String, Object> setOptions() {
		Map<String, Object> set = new LinkedHashMap<>();
		set.put("member", member == null ? null : member.source());
		set.put("score-field", scoreField);
		set.put("value-field", valueField);
		set.put("fields", fields.isEmpty() ? null : fields);
		set.put("max-length", maxLength == 0 ? null : maxLength);
		set.put("hash-update", hashUpdate == HashUpdate.MERGE ? null : hashUpdate);
		set.put("null-fields", nullFields == NullFields.SKIP ? null : nullFields);
		set.put("ttl", ttl.isZero() ? null : ttl);
		set.put("ttl-field", ttlField);
		set.put("ttl-header", ttlHeader);
		set.put("avro-schema", avroSchema);
		set.put("value-deserializer", valueDeserializer);
		set.put("key-format", keyFormat == KeyFormat.RAW ? null : keyFormat);
		set.put("schema-registry.url", schemaRegistry == null ? null : schemaRegistry.url());
		set.values().removeIf(Objects::isNull);
		return set;
	}

	@Override
	public String toString() {
		return "route '" + name + "' " + (topicPattern != null ? "/" + topicPattern + "/" : topics) + " -> " + type
				+ " " + keyTemplate.source();
	}

	/**
	 * Builds a {@link RouteConfig}: each option is checked as it is set
	 * ({@link RouteOptions}), their combination in {@link #build()}.
	 */
	public static final class Builder extends RouteOptions<Builder> {

		private Builder(String name) {
			super(name);
		}

		@Override
		Builder self() {
			return this;
		}

		/**
		 * @throws IllegalArgumentException naming the route, the option and the value, as
		 * {@link RouteRules} says
		 */
		public RouteConfig build() {
			if (topics.isEmpty() == (topicPattern == null)) {
				throw invalid("topics", topics, "name at least one topic, or set topic-pattern instead (one of the two"
						+ (topicPattern == null ? ")" : ", topic-pattern is '" + topicPattern + "')"));
			}
			if (keyTemplate == null || keyTemplate.isBlank()) {
				throw invalid("key-template", keyTemplate, "must be set, e.g. 'user:{userId}' or '{@key}'");
			}
			RouteConfig route = new RouteConfig(this, keyTemplate);
			RouteRules.check(name, type, valueFormat, route.setOptions(),
					route.keyTemplate.usesValueFields() || (route.member != null && route.member.usesValueFields()));
			return route;
		}

	}

}
