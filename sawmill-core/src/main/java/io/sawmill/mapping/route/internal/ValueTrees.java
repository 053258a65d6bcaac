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

import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.sawmill.mapping.registry.internal.SchemaFormat;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A structured value (what a deserializer or a schema registry returns) as a Jackson 3
 * tree, so that every kind maps to fields the same way: a Jackson 3 or Jackson 2
 * {@code JsonNode}, a {@code Map}, an Avro {@code GenericRecord} ({@link AvroValues}) or
 * a Protobuf {@code Message} ({@link ProtobufValues}). Each optional library is touched
 * only when it is on the class path.
 */
final class ValueTrees {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final boolean AVRO_PRESENT = isPresent("org.apache.avro.generic.GenericRecord");

	private static final boolean PROTOBUF_PRESENT = isPresent("com.google.protobuf.MessageOrBuilder");

	private static final boolean JACKSON2_PRESENT = isPresent("com.fasterxml.jackson.databind.JsonNode");

	private ValueTrees() {
	}

	static boolean avroPresent() {
		return AVRO_PRESENT;
	}

	/**
	 * @throws IllegalArgumentException naming the route and option when the libraries
	 * that read {@code format} are not on the class path, so that start-up fails rather
	 * than every record
	 */
	static void requireLibraries(String route, String option, SchemaFormat format) {
		String missing = switch (format) {
			case AVRO -> AVRO_PRESENT ? null : "org.apache.avro:avro";
			case PROTOBUF ->
				PROTOBUF_PRESENT && isPresent("io.apicurio.registry.utils.protobuf.schema.FileDescriptorUtils") ? null
						: "com.google.protobuf:protobuf-java and "
								+ "io.apicurio:apicurio-registry-protobuf-schema-utilities";
			case JSON_SCHEMA -> null;
		};
		if (missing != null) {
			throw new IllegalArgumentException(
					"route '" + route + "': " + option + " " + format + " needs " + missing + " on the class path");
		}
	}

	/** The tree of {@code value}, or null when it is none of the kinds above. */
	static @Nullable JsonNode toTree(Object value) {
		if (value instanceof JsonNode node) {
			return node;
		}
		if (value instanceof Map<?, ?> map) {
			return JSON.valueToTree(map);
		}
		if (AVRO_PRESENT && AvroValues.isRecord(value)) {
			return AvroValues.toTree(value);
		}
		if (PROTOBUF_PRESENT && ProtobufValues.isMessage(value)) {
			return ProtobufValues.toTree(value);
		}
		if (JACKSON2_PRESENT && Jackson2Trees.isTree(value)) {
			return JSON.readTree(Jackson2Trees.json(value));
		}
		return null;
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, ValueTrees.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

}
