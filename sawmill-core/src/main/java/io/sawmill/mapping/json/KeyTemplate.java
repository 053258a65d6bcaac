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

	private record Literal(byte[] utf8) implements Part {
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
				parts.add(new Literal(source.substring(i).getBytes(StandardCharsets.UTF_8)));
				break;
			}
			if (open > i) {
				parts.add(new Literal(source.substring(i, open).getBytes(StandardCharsets.UTF_8)));
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
	 * The key's UTF-8 bytes, joined from the literals' bytes and each placeholder's, without building
	 * a {@code String} for it.
	 * @param fields the record's flattened scalar fields, or none for a tombstone
	 * @throws RecordMappingException when a placeholder has no value in this record
	 */
	byte[] resolve(ConsumerRecord<byte[], byte[]> record, FlatFields fields) {
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

	private static byte[] valueOf(String name, ConsumerRecord<byte[], byte[]> record, FlatFields fields) {
		byte[] value = switch (name) {
			case RECORD_KEY -> record.key() == null ? null : utf8(record.key());
			case RECORD_TOPIC -> record.topic().getBytes(StandardCharsets.UTF_8);
			case RECORD_PARTITION -> Integer.toString(record.partition()).getBytes(StandardCharsets.US_ASCII);
			default -> fields.get(name);
		};
		if (value == null || value.length == 0) {
			throw new RecordMappingException(RECORD_KEY.equals(name) ? "the record has no Kafka key for {@key}"
					: "key field '" + name + "' is missing, null or empty");
		}
		return value;
	}

	/**
	 * The Kafka key as the key template has always read it: decoded as UTF-8 and encoded again, which
	 * replaces malformed sequences. ASCII, the common case, comes out unchanged, so it is used as is.
	 */
	private static byte[] utf8(byte[] kafkaKey) {
		for (byte b : kafkaKey) {
			if (b < 0) {
				return new String(kafkaKey, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
			}
		}
		return kafkaKey;
	}
}
