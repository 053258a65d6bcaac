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

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.jspecify.annotations.Nullable;

import io.sawmill.mapping.RecordMappingException;
import io.sawmill.mapping.internal.FlatFields;
import io.sawmill.mapping.internal.JsonFlattener;
import io.sawmill.mapping.registry.internal.SchemaFormat;
import io.sawmill.mapping.registry.internal.SchemaRegistry;
import io.sawmill.mapping.route.ValueFormat;
import tools.jackson.databind.JsonNode;

/**
 * Reads a record's value in the route's {@link ValueFormat}: its flattened fields and the
 * whole value as the bytes a {@code SET} or {@code LPUSH} writes. Thread-safe.
 */
final class ValueDecoder {

	/**
	 * A record's value: its fields (empty when the format has none) and the whole value.
	 */
	record Decoded(FlatFields fields, byte[] whole) {
	}

	private final RouteConfig config;

	private final JsonFlattener flattener;

	private final boolean needsFields;

	private final @Nullable AvroValues avro;

	private final @Nullable ThreadLocal<Deserializer<?>> deserializer;

	private final @Nullable SchemaRegistry registry;

	/**
	 * @throws IllegalArgumentException naming the route when the schema or deserializer
	 * cannot be loaded
	 */
	ValueDecoder(RouteConfig config, boolean needsFields, @Nullable SchemaRegistry registry) {
		this.config = config;
		this.flattener = new JsonFlattener(config.pathSeparator());
		this.needsFields = needsFields;
		this.registry = registry;
		this.avro = config.valueFormat() == ValueFormat.AVRO && config.avroSchema() != null ? avro(config) : null;
		if (config.valueFormat() == ValueFormat.DESERIALIZER) {
			newDeserializer().close(); // fail at start-up, not on the first record
			this.deserializer = ThreadLocal.withInitial(this::newDeserializer);
		}
		else {
			this.deserializer = null;
		}
	}

	private static AvroValues avro(RouteConfig config) {
		if (!ValueTrees.avroPresent()) {
			throw new IllegalArgumentException(
					"route '" + config.name() + "': value-format AVRO needs org.apache.avro:avro on the class path");
		}
		try {
			return new AvroValues(Objects.requireNonNull(config.avroSchema(), "called with an avro-schema only"));
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException(
					"route '" + config.name() + "': avro-schema is not a valid Avro schema: " + ex.getMessage(), ex);
		}
	}

	private Deserializer<?> newDeserializer() {
		try {
			Class<?> type = Class.forName(config.valueDeserializer(), true,
					Thread.currentThread().getContextClassLoader());
			if (!Deserializer.class.isAssignableFrom(type)) {
				throw new IllegalArgumentException("it is not a " + Deserializer.class.getName());
			}
			Deserializer<?> created = (Deserializer<?>) type.getConstructor().newInstance();
			Map<String, Object> properties = new HashMap<>(config.valueDeserializerProperties());
			created.configure(properties, false);
			return created;
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			throw new IllegalArgumentException("route '" + config.name() + "': value-deserializer '"
					+ config.valueDeserializer() + "' cannot be created: " + ex, ex);
		}
	}

	Decoded decode(ConsumerRecord<byte[], byte[]> record) {
		byte[] value = record.value();
		return switch (config.valueFormat()) {
			case JSON -> new Decoded(needsFields ? flattener.flatten(value) : new FlatFields(false), value);
			case STRING -> new Decoded(new FlatFields(false), value);
			case AVRO -> avro != null ? tree(avro.read(value)) : tree(registryTree(registry, SchemaFormat.AVRO, value));
			case PROTOBUF -> tree(registryTree(registry, SchemaFormat.PROTOBUF, value));
			case JSON_SCHEMA -> tree(registryTree(registry, SchemaFormat.JSON_SCHEMA, value));
			case DESERIALIZER -> deserialized(record);
		};
	}

	private Decoded deserialized(ConsumerRecord<byte[], byte[]> record) {
		Object value;
		try {
			value = Objects.requireNonNull(deserializer, "set for value-format DESERIALIZER")
				.get()
				.deserialize(record.topic(), record.headers(), record.value());
		}
		catch (RuntimeException ex) {
			throw new RecordMappingException(
					"value-deserializer " + config.valueDeserializer() + " failed: " + ex.getMessage(), ex);
		}
		if (value instanceof byte[] bytes) {
			return bytes.length > 0 && bytes[0] == '{' ? new Decoded(flattener.flatten(bytes), bytes)
					: new Decoded(new FlatFields(false), bytes);
		}
		if (value instanceof String text) {
			byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
			return text.startsWith("{") ? new Decoded(flattener.flatten(bytes), bytes)
					: new Decoded(new FlatFields(false), bytes);
		}
		@Nullable JsonNode tree = value == null ? null : ValueTrees.toTree(value);
		if (tree == null) {
			throw new RecordMappingException("value-deserializer " + config.valueDeserializer() + " returned "
					+ (value == null ? "null" : value.getClass().getName())
					+ "; a route maps a Map, a Jackson 3 or 2 JsonNode, an Avro GenericRecord, a Protobuf Message, "
					+ "a String or a byte[]");
		}
		return tree(tree);
	}

	/**
	 * Registry-framed {@code bytes} read with {@code registry} as a tree.
	 * @throws RecordMappingException when they cannot be read
	 * @throws io.sawmill.mapping.MappingUnavailableException when the registry cannot be
	 * asked
	 */
	static JsonNode registryTree(@Nullable SchemaRegistry registry, SchemaFormat format, byte[] bytes) {
		Object value = Objects
			.requireNonNull(registry, "RouteRules requires schema-registry.url for registry-framed formats")
			.read(format, bytes);
		@Nullable JsonNode tree = format == SchemaFormat.AVRO ? AvroValues.toTree(value) : ValueTrees.toTree(value);
		if (tree == null) {
			throw new IllegalStateException(format + " read as " + value.getClass().getName());
		}
		return tree;
	}

	private Decoded tree(JsonNode node) {
		return new Decoded(flattener.flattenTree(node), node.toString().getBytes(StandardCharsets.UTF_8));
	}

}
