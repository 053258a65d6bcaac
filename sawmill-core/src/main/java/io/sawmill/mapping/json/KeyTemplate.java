package io.sawmill.mapping.json;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.sawmill.mapping.RecordMappingException;

/**
 * A parsed key template such as {@code user:{userId}}: literal parts and placeholders, resolved
 * per record without re-parsing.
 */
final class KeyTemplate {

	static final String RECORD_KEY = "@key";
	static final String RECORD_TOPIC = "@topic";
	static final String RECORD_PARTITION = "@partition";

	private sealed interface Part permits Literal, Placeholder {
	}

	private record Literal(String text) implements Part {
	}

	private record Placeholder(String name) implements Part {
	}

	private final String source;
	private final List<Part> parts;
	private final boolean usesValueFields;

	private KeyTemplate(String source, List<Part> parts) {
		this.source = source;
		this.parts = parts;
		this.usesValueFields = parts.stream().anyMatch(p -> p instanceof Placeholder ph && !ph.name().startsWith("@"));
	}

	static KeyTemplate parse(String source) {
		List<Part> parts = new ArrayList<>();
		int i = 0;
		while (i < source.length()) {
			int open = source.indexOf('{', i);
			int close = source.indexOf('}', i);
			if (close >= 0 && (open < 0 || close < open)) {
				throw invalid(source, "'}' at position " + close + " has no matching '{'");
			}
			if (open < 0) {
				parts.add(new Literal(source.substring(i)));
				break;
			}
			if (open > i) {
				parts.add(new Literal(source.substring(i, open)));
			}
			if (close < 0) {
				throw invalid(source, "'{' at position " + open + " is never closed");
			}
			String name = source.substring(open + 1, close).trim();
			if (name.isEmpty() || name.indexOf('{') >= 0) {
				throw invalid(source, "placeholder at position " + open + " has no field name");
			}
			if (name.startsWith("@") && !List.of(RECORD_KEY, RECORD_TOPIC, RECORD_PARTITION).contains(name)) {
				throw invalid(source, "unknown record placeholder {" + name + "}; use {@key}, {@topic} or {@partition}");
			}
			parts.add(new Placeholder(name));
			i = close + 1;
		}
		if (parts.stream().noneMatch(Placeholder.class::isInstance)) {
			throw invalid(source, "it has no placeholder, so every record would overwrite the same key");
		}
		return new KeyTemplate(source, List.copyOf(parts));
	}

	private static IllegalArgumentException invalid(String source, String why) {
		return new IllegalArgumentException("keyTemplate '" + source + "' is invalid: " + why);
	}

	String source() {
		return source;
	}

	/** Whether the key needs the record's value (so a tombstone cannot be mapped by it). */
	boolean usesValueFields() {
		return usesValueFields;
	}

	/**
	 * @param fields the record's flattened scalar fields, or none for a tombstone
	 * @throws RecordMappingException when a placeholder has no value in this record
	 */
	byte[] resolve(ConsumerRecord<byte[], byte[]> record, FlatFields fields) {
		StringBuilder key = new StringBuilder(source.length() + 16);
		for (Part part : parts) {
			if (part instanceof Literal literal) {
				key.append(literal.text());
			}
			else {
				key.append(valueOf(((Placeholder) part).name(), record, fields));
			}
		}
		return key.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static String valueOf(String name, ConsumerRecord<byte[], byte[]> record, FlatFields fields) {
		String value = switch (name) {
			case RECORD_KEY -> record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
			case RECORD_TOPIC -> record.topic();
			case RECORD_PARTITION -> Integer.toString(record.partition());
			default -> fields.get(name);
		};
		if (value == null || value.isEmpty()) {
			throw new RecordMappingException(RECORD_KEY.equals(name) ? "the record has no Kafka key for {@key}"
					: "key field '" + name + "' is missing, null or empty");
		}
		return value;
	}
}
