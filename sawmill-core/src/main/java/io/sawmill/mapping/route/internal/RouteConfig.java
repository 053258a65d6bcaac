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
import java.util.regex.PatternSyntaxException;

import org.jspecify.annotations.Nullable;

import io.sawmill.mapping.KeyEncoding;
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

	/** No TTL: keys do not expire. */
	public static final Duration DEFAULT_TTL = Duration.ZERO;

	/** No cap on a list's or stream's length. */
	public static final long DEFAULT_MAX_LENGTH = 0;

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

	public static final class Builder {

		private final String name;

		private List<String> topics = List.of();

		private @Nullable Pattern topicPattern;

		private RedisType type = RedisType.HASH;

		private @Nullable String keyTemplate;

		private KeyEncoding keyEncoding = KeyEncoding.DEFAULT;

		private List<String> fields = List.of();

		private Duration ttl = DEFAULT_TTL;

		private @Nullable String ttlField;

		private @Nullable String ttlHeader;

		private NullFields nullFields = NullFields.SKIP;

		private HashUpdate hashUpdate = HashUpdate.MERGE;

		private @Nullable String valueField;

		private @Nullable String scoreField;

		private @Nullable String member;

		private ListEnd listEnd = ListEnd.LEFT;

		private long maxLength = DEFAULT_MAX_LENGTH;

		private ValueFormat valueFormat = ValueFormat.JSON;

		private @Nullable String avroSchema;

		private @Nullable String valueDeserializer;

		private Map<String, String> valueDeserializerProperties = Map.of();

		private KeyFormat keyFormat = KeyFormat.RAW;

		private @Nullable SchemaRegistryConfig schemaRegistry;

		private @Nullable String deadLetterTopic;

		private Builder(String name) {
			if (name == null || !name.matches("[a-zA-Z0-9._-]+")) {
				throw new IllegalArgumentException(
						"route name must be non-empty and use only a-z A-Z 0-9 . _ -, but was '" + name + "'");
			}
			this.name = name;
		}

		public Builder topics(List<String> topics) {
			if (topics == null || topics.isEmpty() || topics.stream().anyMatch(t -> t == null || t.isBlank())) {
				throw invalid("topics", topics, "name at least one topic, without blanks");
			}
			this.topics = topics;
			return this;
		}

		/**
		 * A Java regular expression the whole topic name must match; a route has topics
		 * or a topic pattern, not both.
		 */
		public Builder topicPattern(@Nullable String topicPattern) {
			String regex = blankToNull(topicPattern);
			try {
				this.topicPattern = regex == null ? null : Pattern.compile(regex);
			}
			catch (PatternSyntaxException e) {
				throw invalid("topic-pattern", topicPattern,
						"must be a Java regular expression (" + e.getDescription() + ")");
			}
			return this;
		}

		public Builder type(RedisType type) {
			this.type = Objects.requireNonNull(type, "type");
			return this;
		}

		/** The key template: see {@code sawmill.mapping.key-template}. */
		public Builder keyTemplate(@Nullable String keyTemplate) {
			this.keyTemplate = keyTemplate;
			return this;
		}

		public Builder keyEncoding(KeyEncoding keyEncoding) {
			this.keyEncoding = Objects.requireNonNull(keyEncoding, "keyEncoding");
			return this;
		}

		public Builder fields(List<String> fields) {
			if (fields == null || fields.stream().anyMatch(f -> f == null || f.isBlank())) {
				throw invalid("fields", fields, "list field names without blanks");
			}
			this.fields = fields;
			return this;
		}

		public Builder ttl(Duration ttl) {
			if (ttl == null || ttl.isNegative()) {
				throw invalid("ttl", ttl, "must be zero (no expiry) or positive");
			}
			this.ttl = ttl;
			return this;
		}

		public Builder ttlField(@Nullable String ttlField) {
			this.ttlField = blankToNull(ttlField);
			return this;
		}

		public Builder ttlHeader(@Nullable String ttlHeader) {
			this.ttlHeader = blankToNull(ttlHeader);
			return this;
		}

		public Builder nullFields(NullFields nullFields) {
			this.nullFields = Objects.requireNonNull(nullFields, "nullFields");
			return this;
		}

		public Builder hashUpdate(HashUpdate hashUpdate) {
			this.hashUpdate = Objects.requireNonNull(hashUpdate, "hashUpdate");
			return this;
		}

		public Builder valueField(@Nullable String valueField) {
			this.valueField = blankToNull(valueField);
			return this;
		}

		public Builder scoreField(@Nullable String scoreField) {
			this.scoreField = blankToNull(scoreField);
			return this;
		}

		/**
		 * The member template of a set or sorted set, in key-template syntax, e.g.
		 * {@code {@key}}.
		 */
		public Builder member(@Nullable String member) {
			this.member = blankToNull(member);
			return this;
		}

		public Builder listEnd(ListEnd listEnd) {
			this.listEnd = Objects.requireNonNull(listEnd, "listEnd");
			return this;
		}

		public Builder maxLength(long maxLength) {
			if (maxLength < 0) {
				throw invalid("max-length", maxLength, "must be zero (no cap) or positive");
			}
			this.maxLength = maxLength;
			return this;
		}

		public Builder valueFormat(ValueFormat valueFormat) {
			this.valueFormat = Objects.requireNonNull(valueFormat, "valueFormat");
			return this;
		}

		public Builder avroSchema(@Nullable String avroSchema) {
			this.avroSchema = blankToNull(avroSchema);
			return this;
		}

		public Builder valueDeserializer(@Nullable String valueDeserializer) {
			this.valueDeserializer = blankToNull(valueDeserializer);
			return this;
		}

		public Builder valueDeserializerProperties(Map<String, String> properties) {
			this.valueDeserializerProperties = Objects.requireNonNull(properties, "valueDeserializerProperties");
			return this;
		}

		public Builder keyFormat(KeyFormat keyFormat) {
			this.keyFormat = Objects.requireNonNull(keyFormat, "keyFormat");
			return this;
		}

		/** The registry of registry-framed values and keys; null for none. */
		public Builder schemaRegistry(@Nullable SchemaRegistryConfig schemaRegistry) {
			this.schemaRegistry = schemaRegistry;
			return this;
		}

		public Builder deadLetterTopic(@Nullable String deadLetterTopic) {
			String topic = blankToNull(deadLetterTopic);
			if (topic != null && !topic.matches("[a-zA-Z0-9._-]+")) {
				throw invalid("dead-letter-topic", deadLetterTopic, "use only a-z A-Z 0-9 . _ -");
			}
			this.deadLetterTopic = topic;
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

		IllegalArgumentException invalid(String option, @Nullable Object value, String why) {
			return RouteRules.invalid(name, option, value, why);
		}

		private static @Nullable String blankToNull(@Nullable String value) {
			return value == null || value.isBlank() ? null : value;
		}

	}

}
