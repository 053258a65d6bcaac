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
package io.sawmill.mapping.route;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;

import io.sawmill.mapping.RecordMappingException;
import io.sawmill.mapping.internal.FlatFields;
import io.sawmill.mapping.internal.JsonFlattener;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

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

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final boolean AVRO_PRESENT = isPresent("org.apache.avro.generic.GenericRecord");

	private final RouteConfig config;

	private final JsonFlattener flattener;

	private final boolean needsFields;

	private final AvroValues avro;

	private final ThreadLocal<Deserializer<?>> deserializer;

	/**
	 * @throws IllegalArgumentException naming the route when the schema or deserializer
	 * cannot be loaded
	 */
	ValueDecoder(RouteConfig config, boolean needsFields) {
		this.config = config;
		this.flattener = new JsonFlattener(config.pathSeparator());
		this.needsFields = needsFields;
		this.avro = config.valueFormat() == ValueFormat.AVRO ? avro(config) : null;
		if (config.valueFormat() == ValueFormat.DESERIALIZER) {
			newDeserializer().close(); // fail at start-up, not on the first record
			this.deserializer = ThreadLocal.withInitial(this::newDeserializer);
		}
		else {
			this.deserializer = null;
		}
	}

	private static AvroValues avro(RouteConfig config) {
		if (!AVRO_PRESENT) {
			throw new IllegalArgumentException(
					"route '" + config.name() + "': value-format AVRO needs org.apache.avro:avro on the class path");
		}
		try {
			return new AvroValues(config.avroSchema());
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
			case AVRO -> tree(avro.read(value));
			case DESERIALIZER -> deserialized(record);
		};
	}

	private Decoded deserialized(ConsumerRecord<byte[], byte[]> record) {
		Object value;
		try {
			value = deserializer.get().deserialize(record.topic(), record.headers(), record.value());
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
		if (value instanceof JsonNode node) {
			return tree(node);
		}
		if (value instanceof Map<?, ?> map) {
			return tree(JSON.valueToTree(map));
		}
		if (AVRO_PRESENT && AvroValues.isRecord(value)) {
			return tree(AvroValues.toTree(value));
		}
		throw new RecordMappingException("value-deserializer " + config.valueDeserializer() + " returned "
				+ (value == null ? "null" : value.getClass().getName())
				+ "; a route maps a Map, a JsonNode, an Avro GenericRecord, a String or a byte[]");
	}

	private Decoded tree(JsonNode node) {
		return new Decoded(flattener.flattenTree(node), node.toString().getBytes(StandardCharsets.UTF_8));
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, ValueDecoder.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

}
