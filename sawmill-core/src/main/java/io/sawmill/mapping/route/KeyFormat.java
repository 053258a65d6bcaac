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
 * How a route reads the Kafka key that {@code {@key}} stands for.
 */
public enum KeyFormat {

	/**
	 * The key's bytes as they are, made text by the key encoding
	 * ({@code sawmill.mapping.key-encoding}). The default.
	 */
	RAW,

	/**
	 * Registry-framed Avro, read with the route's {@code schema-registry}: a string or
	 * number key becomes its text, a record key its JSON text (fields in schema order).
	 */
	AVRO,

	/**
	 * Registry-framed Protobuf, read with the route's {@code schema-registry}: the
	 * message's JSON text (fields in declaration order).
	 */
	PROTOBUF,

	/**
	 * Registry-framed JSON, read with the route's {@code schema-registry}: a JSON string
	 * or number becomes its text, an object its compact JSON text.
	 */
	JSON_SCHEMA;

}
