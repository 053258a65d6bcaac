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
package io.sawmill.mapping.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.sawmill.mapping.KeyEncoding;
import io.sawmill.mapping.RecordMappingException;

/**
 * A parsed key template such as {@code user:{userId}}: literal parts and placeholders,
 * resolved per record without re-parsing.
 */
public final class KeyTemplate {

	public static final String RECORD_KEY = "@key";

	public static final String RECORD_TOPIC = "@topic";

	public static final String RECORD_PARTITION = "@partition";

	private sealed interface Part permits Literal, Placeholder {

	}

	private record Literal(byte[] utf8) implements Part {
	}

	private record Placeholder(String name) implements Part {
	}

	private final String source;

	private final List<Part> parts;

	private final boolean usesValueFields;

	private final boolean usesRecordKey;

	private final KeyEncoding keyEncoding;

	private KeyTemplate(String source, List<Part> parts, KeyEncoding keyEncoding) {
		this.source = source;
		this.parts = parts;
		this.keyEncoding = keyEncoding;
		this.usesValueFields = parts.stream().anyMatch(p -> p instanceof Placeholder ph && !ph.name().startsWith("@"));
		this.usesRecordKey = parts.stream().anyMatch(p -> p instanceof Placeholder ph && ph.name().equals(RECORD_KEY));
	}

	/**
	 * Parses a template: {@code {name}} is a placeholder, <code>&#123;&#123;</code> and
	 * <code>&#125;&#125;</code> are a literal brace (so {@code {{user}}:{@key}} gives the
	 * Redis Cluster hash tag {@code {user}:42}).
	 * @throws IllegalArgumentException naming the template and the position of what is
	 * wrong
	 */
	public static KeyTemplate parse(String source, KeyEncoding keyEncoding) {
		List<Part> parts = new ArrayList<>();
		StringBuilder literal = new StringBuilder();
		int i = 0;
		while (i < source.length()) {
			char c = source.charAt(i);
			boolean doubled = i + 1 < source.length() && source.charAt(i + 1) == c;
			if (c == '}' && !doubled) {
				throw invalid(source, "'}' at position " + i + " has no matching '{' (write '}}' for a literal '}')");
			}
			if (c != '{' || doubled) {
				literal.append(c);
				i += (c == '{' || c == '}') ? 2 : 1;
				continue;
			}
			int close = source.indexOf('}', i);
			if (close < 0) {
				throw invalid(source, "'{' at position " + i + " is never closed (write '{{' for a literal '{')");
			}
			String name = source.substring(i + 1, close).trim();
			if (name.isEmpty()) {
				throw invalid(source, "placeholder at position " + i + " has no field name");
			}
			if (name.indexOf('{') >= 0) {
				throw invalid(source,
						"placeholder at position " + i + " contains a '{' (write '{{' for a literal '{')");
			}
			if (name.startsWith("@") && !List.of(RECORD_KEY, RECORD_TOPIC, RECORD_PARTITION).contains(name)) {
				throw invalid(source, "unknown record placeholder {" + name + "} at position " + i
						+ "; use {@key}, {@topic} or {@partition}");
			}
			if (!literal.isEmpty()) {
				parts.add(new Literal(literal.toString().getBytes(StandardCharsets.UTF_8)));
				literal.setLength(0);
			}
			parts.add(new Placeholder(name));
			i = close + 1;
		}
		if (!literal.isEmpty()) {
			parts.add(new Literal(literal.toString().getBytes(StandardCharsets.UTF_8)));
		}
		if (parts.stream().noneMatch(Placeholder.class::isInstance)) {
			throw invalid(source, "it has no placeholder, so every record would overwrite the same key");
		}
		return new KeyTemplate(source, List.copyOf(parts), keyEncoding);
	}

	private static IllegalArgumentException invalid(String source, String why) {
		return new IllegalArgumentException("keyTemplate '" + source + "' is invalid: " + why);
	}

	public String source() {
		return source;
	}

	/**
	 * Whether the key needs the record's value (so a tombstone cannot be mapped by it).
	 */
	public boolean usesValueFields() {
		return usesValueFields;
	}

	/**
	 * The value fields the template reads, in order (without {@code {@key}},
	 * {@code {@topic}}, {@code {@partition}}).
	 */
	public List<String> fieldNames() {
		return parts.stream()
			.filter(p -> p instanceof Placeholder ph && !ph.name().startsWith("@"))
			.map(p -> ((Placeholder) p).name())
			.toList();
	}

	/** Whether the key contains the Kafka key, {@code {@key}}. */
	public boolean usesRecordKey() {
		return usesRecordKey;
	}

	public KeyEncoding keyEncoding() {
		return keyEncoding;
	}

	/**
	 * The key's UTF-8 bytes, joined from the literals' bytes and each placeholder's,
	 * without building a {@code String} for it.
	 * @param fields the record's flattened scalar fields, or none for a tombstone
	 * @throws RecordMappingException when a placeholder has no value in this record, or
	 * the Kafka key cannot be written in the {@link KeyEncoding}
	 */
	public byte[] resolve(ConsumerRecord<byte[], byte[]> record, FlatFields fields) {
		byte[][] pieces = new byte[parts.size()][];
		int length = 0;
		for (int i = 0; i < pieces.length; i++) {
			Part part = parts.get(i);
			pieces[i] = part instanceof Literal literal ? literal.utf8()
					: valueOf(((Placeholder) part).name(), record, fields);
			length += pieces[i].length;
		}
		byte[] key = new byte[length];
		int at = 0;
		for (byte[] piece : pieces) {
			System.arraycopy(piece, 0, key, at, piece.length);
			at += piece.length;
		}
		return key;
	}

	private byte[] valueOf(String name, ConsumerRecord<byte[], byte[]> record, FlatFields fields) {
		byte[] value = switch (name) {
			case RECORD_KEY ->
				record.key() == null || record.key().length == 0 ? null : keyEncoding.encode(record.key());
			case RECORD_TOPIC -> record.topic().getBytes(StandardCharsets.UTF_8);
			case RECORD_PARTITION -> Integer.toString(record.partition()).getBytes(StandardCharsets.US_ASCII);
			default -> fields.get(name);
		};
		if (value == null || value.length == 0) {
			throw new RecordMappingException(
					RECORD_KEY.equals(name) ? "the record has no Kafka key (null or empty) for {@key}"
							: "key field '" + name + "' is missing, null or empty");
		}
		return value;
	}

}
