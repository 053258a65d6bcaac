package io.sawmill.bench.e2e;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The records: JSON objects {@code {"id":"…","f1":"…",…,"fN":"…"}} with values of a fixed length.
 * Record {@code seq} has id {@code seq % idSpace}, so once more records than ids are written each key
 * is overwritten; every value carries its record's round ({@code seq / idSpace}), so the hash left in
 * Redis shows that the last record of a key won. Deterministic: the same seq gives the same bytes.
 */
final class Workload {

	static final String KEY_TEMPLATE = "rec:{id}";

	private final int fields;
	private final int valueBytes;
	private final int idSpace;

	Workload(int fields, int valueBytes, int idSpace) {
		this.fields = fields;
		this.valueBytes = valueBytes;
		this.idSpace = idSpace;
	}

	long id(long seq) {
		return seq % idSpace;
	}

	String key(long id) {
		return "rec:" + id;
	}

	byte[] kafkaKey(long seq) {
		return Long.toString(id(seq)).getBytes(StandardCharsets.US_ASCII);
	}

	/** The hash of record {@code seq}, in field order: id, f1…fN. */
	Map<String, String> hash(long seq) {
		long id = id(seq);
		long round = seq / idSpace;
		Map<String, String> hash = new LinkedHashMap<>();
		hash.put("id", Long.toString(id));
		for (int f = 1; f <= fields; f++) {
			hash.put("f" + f, value(id, round, f));
		}
		return hash;
	}

	byte[] json(long seq) {
		StringBuilder json = new StringBuilder(16 + fields * (valueBytes + 10));
		hash(seq).forEach((name, value) -> json.append(json.length() == 0 ? "{\"" : ",\"").append(name)
			.append("\":\"").append(value).append('"'));
		return json.append('}').toString().getBytes(StandardCharsets.US_ASCII);
	}

	/** The hash Redis must hold for {@code id} after records {@code 0…records-1} were written in order. */
	Map<String, String> expectedHash(long id, long records) {
		long lastSeq = id + (long) idSpace * ((records - 1 - id) / idSpace);
		return hash(lastSeq);
	}

	/** How many distinct keys records {@code 0…records-1} write. */
	long distinctKeys(long records) {
		return Math.min(records, idSpace);
	}

	/** Exactly {@code valueBytes} ASCII characters: a mix of the id and field, then the round. */
	private String value(long id, long round, int field) {
		long mixed = (id * 0x9E3779B97F4A7C15L) ^ ((long) field << 56);
		String tail = "-r" + round;
		StringBuilder value = new StringBuilder(valueBytes);
		String hex = Long.toHexString(mixed | Long.MIN_VALUE);
		while (value.length() < valueBytes - tail.length()) {
			value.append(hex, 0, Math.min(hex.length(), valueBytes - tail.length() - value.length()));
		}
		return value.append(tail).toString();
	}
}
