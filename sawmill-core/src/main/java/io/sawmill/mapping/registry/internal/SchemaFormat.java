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
package io.sawmill.mapping.registry.internal;

/**
 * The schema type of registry-framed data, as the registry names it ({@code schemaType}
 * in the Confluent-compatible API; absent means Avro).
 */
public enum SchemaFormat {

	/**
	 * Avro's binary encoding, read with the writer's schema the registry returns for the
	 * id: a new optional field is read as soon as a record carries the new schema's id.
	 * The result is an Avro {@code GenericRecord} (or, for a primitive schema, its
	 * value). Needs {@code org.apache.avro:avro}.
	 */
	AVRO,

	/**
	 * Protobuf's binary encoding of the message the message indexes name in the
	 * registry's {@code .proto}, read as a {@code DynamicMessage}. Needs
	 * {@code com.google.protobuf:protobuf-java} and
	 * {@code io.apicurio:apicurio-registry-protobuf-schema-utilities}, which parses the
	 * {@code .proto} text.
	 */
	PROTOBUF,

	/**
	 * A JSON document, read as a Jackson tree. The registry is asked for the id, so a
	 * value whose schema is unknown is rejected, but the document is not validated
	 * against the schema: the producer's serializer does that.
	 */
	JSON_SCHEMA

}
