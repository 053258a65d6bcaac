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

/**
 * How a route reads a record's value. The listener consumes raw bytes, so every format is
 * decoded by the route's mapper; a value that does not decode is dead-lettered with the
 * reason.
 */
public enum ValueFormat {

	/** A JSON object, flattened into fields ({@code address.city}). The default. */
	JSON,

	/**
	 * The bytes as they are: no fields, only the whole value ({@link RedisType#STRING},
	 * {@link RedisType#LIST}) or none ({@link RedisType#SET}, {@link RedisType#DELETE}).
	 */
	STRING,

	/**
	 * Avro. With the route's {@code avro-schema}: Avro's binary encoding of that schema,
	 * unframed, read with Avro's {@code GenericDatumReader}. Without it: registry-framed
	 * Avro (the Confluent wire format), read with the writer's schema from the route's
	 * {@code schema-registry}, so a new optional field is read from the first record that
	 * carries it. Records are flattened like JSON objects. Needs
	 * {@code org.apache.avro:avro} on the class path.
	 */
	AVRO,

	/**
	 * Registry-framed Protobuf (the Confluent wire format, message indexes included),
	 * read with the {@code .proto} from the route's {@code schema-registry}; messages are
	 * flattened like JSON objects (enums by name, bytes as Base64, unset message fields
	 * null). Needs {@code com.google.protobuf:protobuf-java} and
	 * {@code io.apicurio:apicurio-registry-protobuf-schema-utilities}.
	 */
	PROTOBUF,

	/**
	 * Registry-framed JSON (the Confluent wire format) whose schema id the route's
	 * {@code schema-registry} must know; the document is flattened like {@link #JSON}.
	 */
	JSON_SCHEMA,

	/**
	 * The route's {@code value-deserializer}, any Kafka {@code Deserializer} (e.g. a
	 * schema registry's Avro deserializer), configured with
	 * {@code value-deserializer-properties}. What it returns is mapped when it is a
	 * {@code Map}, a Jackson 3 or Jackson 2 {@code JsonNode}, an Avro
	 * {@code GenericRecord}, a Protobuf {@code Message}, a {@code String} or a
	 * {@code byte[]} (each read as JSON when it is an object, else as a whole value).
	 */
	DESERIALIZER;

}
