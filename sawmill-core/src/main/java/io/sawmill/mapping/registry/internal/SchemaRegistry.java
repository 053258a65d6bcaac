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

import java.util.LinkedHashMap;
import java.util.Map;

import io.sawmill.mapping.MappingUnavailableException;
import io.sawmill.mapping.RecordMappingException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads registry-framed bytes ({@link WireFormat}) with the writer's schema, which it
 * asks the registry for once per schema id and then keeps (up to
 * {@link SchemaRegistryConfig#cacheSize()}, least recently used dropped first): a schema
 * change mid-stream is a new id, fetched when its first record arrives. Thread-safe: the
 * listener threads of a route share one.
 * <p>
 * What fails is classified once, here: bytes that are not framed, an id the registry does
 * not know, a schema of another type than the route reads, or a payload its schema cannot
 * read are the record's fault ({@link RecordMappingException}, dead-lettered with the
 * reason); a registry that does not answer is not ({@link MappingUnavailableException}:
 * the batch waits and is polled again).
 */
public final class SchemaRegistry {

	/** A schema parsed for its format: an Avro {@code Schema}, a Protobuf descriptor. */
	private record Parsed(SchemaFormat format, Object schema) {
	}

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final SchemaRegistryConfig config;

	private final SchemaLookup lookup;

	private final Map<Integer, Parsed> cache;

	private SchemaRegistry(SchemaRegistryConfig config) {
		this.config = config;
		this.lookup = new SchemaLookup(config);
		this.cache = new LinkedHashMap<>(16, 0.75f, true) {

			private static final long serialVersionUID = 1L;

			@Override
			protected boolean removeEldestEntry(Map.Entry<Integer, Parsed> eldest) {
				return size() > config.cacheSize();
			}

		};
	}

	public static SchemaRegistry of(SchemaRegistryConfig config) {
		return new SchemaRegistry(config);
	}

	public SchemaRegistryConfig config() {
		return config;
	}

	/**
	 * Reads registry-framed {@code bytes} of {@code format}: an Avro
	 * {@code GenericRecord} (or a primitive schema's value), a Protobuf
	 * {@code DynamicMessage}, or a Jackson 3 {@code JsonNode} for JSON Schema.
	 * @throws RecordMappingException when the bytes cannot be read, naming why
	 * @throws MappingUnavailableException when the registry cannot be asked for the
	 * schema
	 */
	public Object read(SchemaFormat format, byte[] bytes) {
		WireFormat framed = WireFormat.read(bytes, format);
		Parsed parsed = schema(framed.schemaId(), format);
		try {
			return switch (format) {
				case AVRO -> AvroSchemas.read(parsed.schema(), bytes, framed.payloadOffset());
				case PROTOBUF ->
					ProtobufSchemas.read(parsed.schema(), framed.messageIndexes(), bytes, framed.payloadOffset());
				case JSON_SCHEMA -> JSON.readTree(bytes, framed.payloadOffset(), bytes.length - framed.payloadOffset());
			};
		}
		catch (JacksonException ex) {
			throw new RecordMappingException(
					"schema id " + framed.schemaId() + ": the payload is not JSON: " + ex.getOriginalMessage(), ex);
		}
	}

	private Parsed schema(int id, SchemaFormat format) {
		Parsed parsed;
		synchronized (cache) {
			parsed = cache.get(id);
		}
		if (parsed == null) {
			// outside the lock: a slow registry holds up only the threads that need it
			parsed = parse(lookup.fetch(id), format);
			synchronized (cache) {
				cache.put(id, parsed);
			}
		}
		if (parsed.format() != format) {
			throw new RecordMappingException("schema id " + id + " is a " + registryType(parsed.format())
					+ " schema, but the route reads " + format);
		}
		return parsed;
	}

	private static Parsed parse(SchemaLookup.Registered registered, SchemaFormat format) {
		SchemaFormat type = formatOf(registered);
		if (type != format) {
			return new Parsed(type, registered.text()); // rejected by the caller, never
														// parsed
		}
		if (registered.hasReferences() && format != SchemaFormat.JSON_SCHEMA) {
			throw new RecordMappingException("schema id " + registered.id()
					+ " references other schemas, which Sawmill does not resolve; register it self-contained");
		}
		try {
			return switch (format) {
				case AVRO -> new Parsed(format, AvroSchemas.parse(registered.text()));
				case PROTOBUF -> new Parsed(format, ProtobufSchemas.parse(registered.id(), registered.text()));
				case JSON_SCHEMA -> new Parsed(format, registered.text());
			};
		}
		catch (RuntimeException ex) {
			throw new RecordMappingException(
					"schema id " + registered.id() + " is not a valid " + format + " schema: " + ex.getMessage(), ex);
		}
	}

	private static SchemaFormat formatOf(SchemaLookup.Registered registered) {
		for (SchemaFormat format : SchemaFormat.values()) {
			if (registryType(format).equalsIgnoreCase(registered.type())) {
				return format;
			}
		}
		throw new RecordMappingException("schema id " + registered.id() + " has schemaType " + registered.type()
				+ ", which Sawmill does not read");
	}

	/** A format's {@code schemaType} in the registry's API. */
	private static String registryType(SchemaFormat format) {
		return format == SchemaFormat.JSON_SCHEMA ? "JSON" : format.name();
	}

}
