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

import java.math.BigInteger;
import java.util.Base64;
import java.util.List;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.MessageOrBuilder;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Protobuf message as a Jackson tree, the way {@link AvroValues} turns an Avro record
 * into one: every field of the message's descriptor by its name, in declaration order;
 * scalars as they are (unsigned 32- and 64-bit integers unsigned), enums by name, bytes
 * in Base64, repeated fields as arrays, maps as objects, nested messages nested. A field
 * with presence (a message, {@code optional}, a {@code oneof} member) that is not set is
 * null; a proto3 scalar without presence has its default, as Protobuf reads it. Apart so
 * that only routes that meet a {@code Message} load protobuf-java.
 */
final class ProtobufValues {

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	private ProtobufValues() {
	}

	static boolean isMessage(Object value) {
		return value instanceof MessageOrBuilder;
	}

	static JsonNode toTree(Object message) {
		MessageOrBuilder m = (MessageOrBuilder) message;
		ObjectNode object = NODES.objectNode();
		for (FieldDescriptor field : m.getDescriptorForType().getFields()) {
			if (field.isMapField()) {
				ObjectNode map = NODES.objectNode();
				for (Object entry : (List<?>) m.getField(field)) {
					MessageOrBuilder pair = (MessageOrBuilder) entry;
					FieldDescriptor key = pair.getDescriptorForType().findFieldByNumber(1);
					FieldDescriptor value = pair.getDescriptorForType().findFieldByNumber(2);
					map.set(String.valueOf(pair.getField(key)), value(value, pair.getField(value)));
				}
				object.set(field.getName(), map);
			}
			else if (field.isRepeated()) {
				ArrayNode array = NODES.arrayNode();
				((List<?>) m.getField(field)).forEach(item -> array.add(value(field, item)));
				object.set(field.getName(), array);
			}
			else if (field.hasPresence() && !m.hasField(field)) {
				object.set(field.getName(), NODES.nullNode());
			}
			else {
				object.set(field.getName(), value(field, m.getField(field)));
			}
		}
		return object;
	}

	private static JsonNode value(FieldDescriptor field, Object value) {
		return switch (field.getJavaType()) {
			case MESSAGE -> toTree(value);
			case ENUM -> NODES.stringNode(((EnumValueDescriptor) value).getName());
			case BYTE_STRING ->
				NODES.stringNode(Base64.getEncoder().encodeToString(((ByteString) value).toByteArray()));
			case BOOLEAN -> NODES.booleanNode((Boolean) value);
			case FLOAT, DOUBLE -> NODES.numberNode(((Number) value).doubleValue());
			case INT -> isUnsigned(field) ? NODES.numberNode(Integer.toUnsignedLong((Integer) value))
					: NODES.numberNode((Integer) value);
			case LONG -> isUnsigned(field) ? NODES.numberNode(new BigInteger(Long.toUnsignedString((Long) value)))
					: NODES.numberNode((Long) value);
			case STRING -> NODES.stringNode((String) value);
		};
	}

	private static boolean isUnsigned(FieldDescriptor field) {
		return switch (field.getType()) {
			case UINT32, FIXED32, UINT64, FIXED64 -> true;
			default -> false;
		};
	}

}
