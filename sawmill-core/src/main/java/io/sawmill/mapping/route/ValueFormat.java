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
	 * Avro binary encoding of the route's {@code avro-schema} (no schema registry
	 * framing), read with Avro's {@code GenericDatumReader}; records are flattened like
	 * JSON objects. Needs {@code org.apache.avro:avro} on the class path.
	 */
	AVRO,

	/**
	 * The route's {@code value-deserializer}, any Kafka {@code Deserializer} (e.g. a
	 * schema registry's Avro deserializer), configured with
	 * {@code value-deserializer-properties}. What it returns is mapped when it is a
	 * {@code Map}, a Jackson {@code JsonNode}, an Avro {@code GenericRecord}, a
	 * {@code String} or a {@code byte[]} (each read as JSON when it is an object, else as
	 * a whole value).
	 */
	DESERIALIZER;

}
