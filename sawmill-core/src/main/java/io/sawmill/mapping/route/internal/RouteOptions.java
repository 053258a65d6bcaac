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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.jspecify.annotations.Nullable;

import io.sawmill.mapping.KeyEncoding;
import io.sawmill.mapping.registry.internal.SchemaRegistryConfig;
import io.sawmill.mapping.route.HashUpdate;
import io.sawmill.mapping.route.KeyFormat;
import io.sawmill.mapping.route.ListEnd;
import io.sawmill.mapping.route.NullFields;
import io.sawmill.mapping.route.RedisType;
import io.sawmill.mapping.route.ValueFormat;

/**
 * A route's options as they are set, each checked on its own: a setter fails on an
 * invalid value with a message naming the route, the option as written in YAML and the
 * value ({@link RouteRules}). {@link RouteConfig.Builder} extends it with
 * {@code build()}, which checks their combination.
 *
 * @param <B> the builder, returned by each setter for chaining
 */
abstract class RouteOptions<B extends RouteOptions<B>> {

	/** No TTL: keys do not expire. */
	static final Duration DEFAULT_TTL = Duration.ZERO;

	/** No cap on a list's or stream's length. */
	static final long DEFAULT_MAX_LENGTH = 0;

	// the options as set so far, read by RouteConfig's constructor

	final String name;

	List<String> topics = List.of();

	@Nullable Pattern topicPattern;

	RedisType type = RedisType.HASH;

	@Nullable String keyTemplate;

	KeyEncoding keyEncoding = KeyEncoding.DEFAULT;

	List<String> fields = List.of();

	Duration ttl = DEFAULT_TTL;

	@Nullable String ttlField;

	@Nullable String ttlHeader;

	NullFields nullFields = NullFields.SKIP;

	HashUpdate hashUpdate = HashUpdate.MERGE;

	@Nullable String valueField;

	@Nullable String scoreField;

	@Nullable String member;

	ListEnd listEnd = ListEnd.LEFT;

	long maxLength = DEFAULT_MAX_LENGTH;

	ValueFormat valueFormat = ValueFormat.JSON;

	@Nullable String avroSchema;

	@Nullable String valueDeserializer;

	Map<String, String> valueDeserializerProperties = Map.of();

	KeyFormat keyFormat = KeyFormat.RAW;

	@Nullable SchemaRegistryConfig schemaRegistry;

	@Nullable String deadLetterTopic;

	RouteOptions(String name) {
		if (name == null || !name.matches("[a-zA-Z0-9._-]+")) {
			throw new IllegalArgumentException(
					"route name must be non-empty and use only a-z A-Z 0-9 . _ -, but was '" + name + "'");
		}
		this.name = name;
	}

	public B topics(List<String> topics) {
		if (topics == null || topics.isEmpty() || topics.stream().anyMatch(t -> t == null || t.isBlank())) {
			throw invalid("topics", topics, "name at least one topic, without blanks");
		}
		this.topics = topics;
		return self();
	}

	/**
	 * A Java regular expression the whole topic name must match; a route has topics or a
	 * topic pattern, not both.
	 */
	public B topicPattern(@Nullable String topicPattern) {
		String regex = blankToNull(topicPattern);
		try {
			this.topicPattern = regex == null ? null : Pattern.compile(regex);
		}
		catch (PatternSyntaxException e) {
			throw invalid("topic-pattern", topicPattern,
					"must be a Java regular expression (" + e.getDescription() + ")");
		}
		return self();
	}

	public B type(RedisType type) {
		this.type = Objects.requireNonNull(type, "type");
		return self();
	}

	/** The key template: see {@code sawmill.mapping.key-template}. */
	public B keyTemplate(@Nullable String keyTemplate) {
		this.keyTemplate = keyTemplate;
		return self();
	}

	public B keyEncoding(KeyEncoding keyEncoding) {
		this.keyEncoding = Objects.requireNonNull(keyEncoding, "keyEncoding");
		return self();
	}

	public B fields(List<String> fields) {
		if (fields == null || fields.stream().anyMatch(f -> f == null || f.isBlank())) {
			throw invalid("fields", fields, "list field names without blanks");
		}
		this.fields = fields;
		return self();
	}

	public B ttl(Duration ttl) {
		if (ttl == null || ttl.isNegative()) {
			throw invalid("ttl", ttl, "must be zero (no expiry) or positive");
		}
		this.ttl = ttl;
		return self();
	}

	public B ttlField(@Nullable String ttlField) {
		this.ttlField = blankToNull(ttlField);
		return self();
	}

	public B ttlHeader(@Nullable String ttlHeader) {
		this.ttlHeader = blankToNull(ttlHeader);
		return self();
	}

	public B nullFields(NullFields nullFields) {
		this.nullFields = Objects.requireNonNull(nullFields, "nullFields");
		return self();
	}

	public B hashUpdate(HashUpdate hashUpdate) {
		this.hashUpdate = Objects.requireNonNull(hashUpdate, "hashUpdate");
		return self();
	}

	public B valueField(@Nullable String valueField) {
		this.valueField = blankToNull(valueField);
		return self();
	}

	public B scoreField(@Nullable String scoreField) {
		this.scoreField = blankToNull(scoreField);
		return self();
	}

	/**
	 * The member template of a set or sorted set, in key-template syntax, e.g.
	 * {@code {@key}}.
	 */
	public B member(@Nullable String member) {
		this.member = blankToNull(member);
		return self();
	}

	public B listEnd(ListEnd listEnd) {
		this.listEnd = Objects.requireNonNull(listEnd, "listEnd");
		return self();
	}

	public B maxLength(long maxLength) {
		if (maxLength < 0) {
			throw invalid("max-length", maxLength, "must be zero (no cap) or positive");
		}
		this.maxLength = maxLength;
		return self();
	}

	public B valueFormat(ValueFormat valueFormat) {
		this.valueFormat = Objects.requireNonNull(valueFormat, "valueFormat");
		return self();
	}

	public B avroSchema(@Nullable String avroSchema) {
		this.avroSchema = blankToNull(avroSchema);
		return self();
	}

	public B valueDeserializer(@Nullable String valueDeserializer) {
		this.valueDeserializer = blankToNull(valueDeserializer);
		return self();
	}

	public B valueDeserializerProperties(Map<String, String> properties) {
		this.valueDeserializerProperties = Objects.requireNonNull(properties, "valueDeserializerProperties");
		return self();
	}

	public B keyFormat(KeyFormat keyFormat) {
		this.keyFormat = Objects.requireNonNull(keyFormat, "keyFormat");
		return self();
	}

	/** The registry of registry-framed values and keys; null for none. */
	public B schemaRegistry(@Nullable SchemaRegistryConfig schemaRegistry) {
		this.schemaRegistry = schemaRegistry;
		return self();
	}

	public B deadLetterTopic(@Nullable String deadLetterTopic) {
		String topic = blankToNull(deadLetterTopic);
		if (topic != null && !topic.matches("[a-zA-Z0-9._-]+")) {
			throw invalid("dead-letter-topic", deadLetterTopic, "use only a-z A-Z 0-9 . _ -");
		}
		this.deadLetterTopic = topic;
		return self();
	}

	/** This builder, for chaining. */
	abstract B self();

	IllegalArgumentException invalid(String option, @Nullable Object value, String why) {
		return RouteRules.invalid(name, option, value, why);
	}

	private static @Nullable String blankToNull(@Nullable String value) {
		return value == null || value.isBlank() ? null : value;
	}

}
