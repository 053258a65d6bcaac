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

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.sawmill.mapping.registry.internal.SchemaRegistryConfig;
import io.sawmill.mapping.route.HashUpdate;
import io.sawmill.mapping.route.KeyFormat;
import io.sawmill.mapping.route.ListEnd;
import io.sawmill.mapping.route.NullFields;
import io.sawmill.mapping.route.RedisType;
import io.sawmill.mapping.route.ValueFormat;

/**
 * One entry of {@code sawmill.routes}: a mapping ({@code key-template},
 * {@code key-encoding}, {@code fields}, {@code ttl}, as in {@code sawmill.mapping}) with
 * its topics, Redis type and value format (docs/mapping.md).
 */
public class SawmillRouteProperties extends SawmillMappingProperties {

	/** The route's name, used in log lines and errors. */
	private @Nullable String name;

	/** The topics this route reads; a topic belongs to one route. */
	private List<String> topics = new ArrayList<>();

	/**
	 * A Java regular expression the whole topic name must match, instead of topics: the
	 * route reads every topic it matches, also ones created later. Needs
	 * dead-letter-topic while dead letters are on.
	 */
	private @Nullable String topicPattern;

	/** The Redis type written: HASH, STRING, SORTED_SET, SET, LIST, STREAM or DELETE. */
	private RedisType type = RedisType.HASH;

	/** Value field holding a record's TTL in seconds. */
	private @Nullable String ttlField;

	/** Kafka header holding a record's TTL in seconds. */
	private @Nullable String ttlHeader;

	/** What a JSON null does to a HASH field: SKIP (keeps it) or DELETE (HDEL). */
	private NullFields nullFields = NullFields.SKIP;

	/**
	 * How a HASH is updated: MERGE (HSET) or REPLACE (atomically becomes exactly the
	 * record's fields).
	 */
	private HashUpdate hashUpdate = HashUpdate.MERGE;

	/** The field STRING and LIST write; unset writes the whole value. */
	private @Nullable String valueField;

	/** The value field holding a SORTED_SET member's score. */
	private @Nullable String scoreField;

	/** The member of a SET or SORTED_SET, in key-template syntax, e.g. '{@key}'. */
	private @Nullable String member;

	/** Where LIST pushes: LEFT (LPUSH, newest first) or RIGHT (RPUSH). */
	private ListEnd listEnd = ListEnd.LEFT;

	/** Cap of a LIST (LTRIM) or STREAM (XADD MAXLEN ~); 0 means none. */
	private long maxLength = 0;

	/** How values are read: JSON, STRING, AVRO, PROTOBUF, JSON_SCHEMA or DESERIALIZER. */
	private ValueFormat valueFormat = ValueFormat.JSON;

	/**
	 * The Avro schema (JSON) of unframed AVRO values; unset reads registry-framed Avro.
	 */
	private @Nullable String avroSchema;

	/** The Kafka Deserializer class of DESERIALIZER values. */
	private @Nullable String valueDeserializer;

	/**
	 * Properties passed to the value deserializer's configure(), e.g.
	 * schema.registry.url.
	 */
	private Map<String, String> valueDeserializerProperties = new LinkedHashMap<>();

	/**
	 * How the Kafka key ({key}) is read: RAW, or registry-framed AVRO, PROTOBUF or
	 * JSON_SCHEMA.
	 */
	private KeyFormat keyFormat = KeyFormat.RAW;

	/** The schema registry of registry-framed values and keys. */
	private final SchemaRegistry schemaRegistry = new SchemaRegistry();

	/**
	 * This route's dead-letter topic; unset uses '<source topic>' +
	 * sawmill.dead-letter.topic-suffix.
	 */
	private @Nullable String deadLetterTopic;

	public @Nullable String getName() {
		return name;
	}

	public void setName(@Nullable String name) {
		this.name = name;
	}

	public @Nullable String getTopicPattern() {
		return topicPattern;
	}

	public void setTopicPattern(@Nullable String topicPattern) {
		this.topicPattern = topicPattern;
	}

	public List<String> getTopics() {
		return topics;
	}

	public void setTopics(List<String> topics) {
		this.topics = topics;
	}

	public RedisType getType() {
		return type;
	}

	public void setType(RedisType type) {
		this.type = type;
	}

	public @Nullable String getTtlField() {
		return ttlField;
	}

	public void setTtlField(@Nullable String ttlField) {
		this.ttlField = ttlField;
	}

	public @Nullable String getTtlHeader() {
		return ttlHeader;
	}

	public void setTtlHeader(@Nullable String ttlHeader) {
		this.ttlHeader = ttlHeader;
	}

	public NullFields getNullFields() {
		return nullFields;
	}

	public void setNullFields(NullFields nullFields) {
		this.nullFields = nullFields;
	}

	public HashUpdate getHashUpdate() {
		return hashUpdate;
	}

	public void setHashUpdate(HashUpdate hashUpdate) {
		this.hashUpdate = hashUpdate;
	}

	public @Nullable String getValueField() {
		return valueField;
	}

	public void setValueField(@Nullable String valueField) {
		this.valueField = valueField;
	}

	public @Nullable String getScoreField() {
		return scoreField;
	}

	public void setScoreField(@Nullable String scoreField) {
		this.scoreField = scoreField;
	}

	public @Nullable String getMember() {
		return member;
	}

	public void setMember(@Nullable String member) {
		this.member = member;
	}

	public ListEnd getListEnd() {
		return listEnd;
	}

	public void setListEnd(ListEnd listEnd) {
		this.listEnd = listEnd;
	}

	public long getMaxLength() {
		return maxLength;
	}

	public void setMaxLength(long maxLength) {
		this.maxLength = maxLength;
	}

	public ValueFormat getValueFormat() {
		return valueFormat;
	}

	public void setValueFormat(ValueFormat valueFormat) {
		this.valueFormat = valueFormat;
	}

	public @Nullable String getAvroSchema() {
		return avroSchema;
	}

	public void setAvroSchema(@Nullable String avroSchema) {
		this.avroSchema = avroSchema;
	}

	public @Nullable String getValueDeserializer() {
		return valueDeserializer;
	}

	public void setValueDeserializer(@Nullable String valueDeserializer) {
		this.valueDeserializer = valueDeserializer;
	}

	public Map<String, String> getValueDeserializerProperties() {
		return valueDeserializerProperties;
	}

	public void setValueDeserializerProperties(Map<String, String> valueDeserializerProperties) {
		this.valueDeserializerProperties = valueDeserializerProperties;
	}

	public KeyFormat getKeyFormat() {
		return keyFormat;
	}

	public void setKeyFormat(KeyFormat keyFormat) {
		this.keyFormat = keyFormat;
	}

	public SchemaRegistry getSchemaRegistry() {
		return schemaRegistry;
	}

	public @Nullable String getDeadLetterTopic() {
		return deadLetterTopic;
	}

	public void setDeadLetterTopic(@Nullable String deadLetterTopic) {
		this.deadLetterTopic = deadLetterTopic;
	}

	/** A route's schema registry: its Confluent-compatible API and how to call it. */
	public static class SchemaRegistry {

		/**
		 * Base URL of the registry's Confluent-compatible API, e.g. http://registry:8081
		 * or Apicurio's http://registry:8080/apis/ccompat/v7.
		 */
		private @Nullable String url;

		/** User of HTTP basic authentication; set together with password. */
		private @Nullable String username;

		/** Password of HTTP basic authentication. */
		private @Nullable String password;

		/**
		 * How long one schema lookup may take; past it the registry counts as unreachable
		 * and the batch is polled again.
		 */
		private Duration requestTimeout = SchemaRegistryConfig.DEFAULT_REQUEST_TIMEOUT;

		/**
		 * How many parsed schemas the route keeps (by id; least recently used dropped).
		 */
		private int cacheSize = SchemaRegistryConfig.DEFAULT_CACHE_SIZE;

		public @Nullable String getUrl() {
			return url;
		}

		public void setUrl(@Nullable String url) {
			this.url = url;
		}

		public @Nullable String getUsername() {
			return username;
		}

		public void setUsername(@Nullable String username) {
			this.username = username;
		}

		public @Nullable String getPassword() {
			return password;
		}

		public void setPassword(@Nullable String password) {
			this.password = password;
		}

		public Duration getRequestTimeout() {
			return requestTimeout;
		}

		public void setRequestTimeout(Duration requestTimeout) {
			this.requestTimeout = requestTimeout;
		}

		public int getCacheSize() {
			return cacheSize;
		}

		public void setCacheSize(int cacheSize) {
			this.cacheSize = cacheSize;
		}

	}

}
