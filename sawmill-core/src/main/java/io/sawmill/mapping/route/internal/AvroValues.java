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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

import io.sawmill.mapping.RecordMappingException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Avro values as JSON trees, so they are flattened like JSON objects. Loaded only by
 * routes that read Avro ({@code org.apache.avro:avro} is an optional dependency). Bytes
 * and fixed values become Base64 text, enums their symbol, maps objects and arrays JSON
 * arrays. Thread-safe.
 */
final class AvroValues {

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	private final Schema schema;

	/**
	 * A reader per listener thread: Avro does not document its datum readers as
	 * thread-safe.
	 */
	private final ThreadLocal<GenericDatumReader<Object>> readers;

	/**
	 * @throws org.apache.avro.SchemaParseException when {@code schemaJson} is not a valid
	 * schema
	 */
	AvroValues(String schemaJson) {
		this.schema = new Schema.Parser().parse(schemaJson);
		this.readers = ThreadLocal.withInitial(() -> new GenericDatumReader<>(schema));
	}

	/** Reads one value in Avro's binary encoding, the whole of {@code bytes}. */
	JsonNode read(byte[] bytes) {
		Object datum;
		BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, null);
		try {
			datum = readers.get().read(null, decoder);
			if (!decoder.isEnd()) {
				throw new RecordMappingException("value is not Avro of the route's schema " + schema.getFullName()
						+ ": bytes are left after the record");
			}
		}
		catch (IOException | RuntimeException ex) {
			if (ex instanceof RecordMappingException mapping) {
				throw mapping;
			}
			throw new RecordMappingException(
					"value is not Avro of the route's schema " + schema.getFullName() + ": " + ex, ex);
		}
		return toTree(datum);
	}

	static boolean isRecord(Object value) {
		return value instanceof GenericContainer;
	}

	static JsonNode toTree(Object value) {
		if (value == null) {
			return NODES.nullNode();
		}
		if (value instanceof GenericRecord record) {
			ObjectNode object = NODES.objectNode();
			for (Schema.Field field : record.getSchema().getFields()) {
				object.set(field.name(), toTree(record.get(field.pos())));
			}
			return object;
		}
		if (value instanceof Map<?, ?> map) {
			ObjectNode object = NODES.objectNode();
			map.forEach((k, v) -> object.set(String.valueOf(k), toTree(v)));
			return object;
		}
		if (value instanceof Collection<?> items) {
			ArrayNode array = NODES.arrayNode();
			items.forEach(item -> array.add(toTree(item)));
			return array;
		}
		if (value instanceof ByteBuffer buffer) {
			byte[] bytes = new byte[buffer.remaining()];
			buffer.duplicate().get(bytes);
			return NODES.stringNode(Base64.getEncoder().encodeToString(bytes));
		}
		if (value instanceof GenericFixed fixed) {
			return NODES.stringNode(Base64.getEncoder().encodeToString(fixed.bytes()));
		}
		if (value instanceof Boolean b) {
			return NODES.booleanNode(b);
		}
		if (value instanceof Integer || value instanceof Long) {
			return NODES.numberNode(((Number) value).longValue());
		}
		if (value instanceof Float || value instanceof Double) {
			return NODES.numberNode(((Number) value).doubleValue());
		}
		return NODES.stringNode(value.toString()); // Utf8, String, enum symbols
	}

}
