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
package io.sawmill.bench.e2e.workload;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The records: JSON objects {@code {"id":"…","f1":"…",…,"fN":"…"}} with values of a fixed
 * length, keyed by id; which id record {@code seq} writes is the {@link KeySequence}'s
 * choice (every id in turn, or hot keys). Every value ends with the record's version, the
 * number of records of its id before it, so the hash left in Redis shows that the last
 * record of a key won. A versioned workload also carries that number as a JSON number
 * field {@code "version"} after the id, for a version guard to compare
 * ({@code sawmill.mapping.version=field:version}). Deterministic: the same seq gives the
 * same bytes.
 */
public final class Workload {

	public static final String KEY_TEMPLATE = "rec:{id}";

	private static final String KEY_PREFIX = "rec:";

	private final int fields;

	private final int valueBytes;

	private final int idSpace;

	private final KeySequence keys;

	private final boolean versioned;

	private Written written;

	/** Every id in turn, no version field: the shape of the main table. */
	Workload(int fields, int valueBytes, int idSpace) {
		this(fields, valueBytes, idSpace, new KeySequence.Uniform(idSpace), false);
	}

	public Workload(int fields, int valueBytes, int idSpace, KeySequence keys, boolean versioned) {
		this.fields = fields;
		this.valueBytes = valueBytes;
		this.idSpace = idSpace;
		this.keys = keys;
		this.versioned = versioned;
	}

	public long id(long seq) {
		return keys.id(seq);
	}

	public String key(long id) {
		return KEY_PREFIX + id;
	}

	/** Whether {@code key} is one this workload writes ({@code rec:} and an id). */
	public boolean isKey(String key) {
		if (!key.startsWith(KEY_PREFIX) || key.length() == KEY_PREFIX.length()) {
			return false;
		}
		for (int i = KEY_PREFIX.length(); i < key.length(); i++) {
			if (!Character.isDigit(key.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	public byte[] kafkaKey(long seq) {
		return Long.toString(id(seq)).getBytes(StandardCharsets.US_ASCII);
	}

	/** The hash of record {@code seq}, in field order: id, (version,) f1…fN. */
	public Map<String, String> hash(long seq) {
		long id = id(seq);
		long version = keys.version(seq);
		Map<String, String> hash = new LinkedHashMap<>();
		hash.put("id", Long.toString(id));
		if (versioned) {
			hash.put("version", Long.toString(version));
		}
		for (int f = 1; f <= fields; f++) {
			hash.put("f" + f, value(id, version, f));
		}
		return hash;
	}

	public byte[] json(long seq) {
		StringBuilder json = new StringBuilder(32 + fields * (valueBytes + 10));
		hash(seq).forEach((name, value) -> {
			json.append(json.length() == 0 ? "{\"" : ",\"").append(name).append("\":");
			// a number, as a version usually is; Sawmill's hash mapping writes it as its
			// decimal text
			if (name.equals("version")) {
				json.append(value);
			}
			else {
				json.append('"').append(value).append('"');
			}
		});
		return json.append('}').toString().getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * The hash Redis must hold for {@code id} after records {@code 0…records-1} were
	 * written in order.
	 */
	public Map<String, String> expectedHash(long id, long records) {
		return hash(written(records).lastRecord(id));
	}

	/** How many distinct keys records {@code 0…records-1} write. */
	long distinctKeys(long records) {
		return written(records).keys();
	}

	/**
	 * What records {@code 0…records-1} leave in Redis; the last one asked for is kept.
	 */
	public synchronized Written written(long records) {
		if (written == null || written.records() != records) {
			written = Written.of(keys, idSpace, records);
		}
		return written;
	}

	/**
	 * The keys records {@code 0…records-1} write, each with the last record that wrote
	 * it.
	 *
	 * @param ids the ids written, ascending
	 * @param lastRecord per id, the last record that wrote it, -1 for none
	 * @param hottest the id written by the most records (the lowest of equals)
	 * @param hottestRecords how many records wrote it
	 */
	public record Written(long records, int[] ids, int[] lastRecord, int hottest, int hottestRecords) {

		static Written of(KeySequence keys, int idSpace, long records) {
			if (records >= Integer.MAX_VALUE) {
				throw new IllegalArgumentException(
						"at most " + (Integer.MAX_VALUE - 1) + " records, but was " + records);
			}
			int[] last = new int[idSpace];
			int[] count = new int[idSpace];
			Arrays.fill(last, -1);
			for (int seq = 0; seq < records; seq++) {
				int id = (int) keys.id(seq);
				last[id] = seq;
				count[id]++;
			}
			int hottest = 0;
			for (int id = 1; id < idSpace; id++) {
				hottest = count[id] > count[hottest] ? id : hottest;
			}
			int[] ids = IntStream.range(0, idSpace).filter(id -> last[id] >= 0).toArray();
			return new Written(records, ids, last, hottest, records == 0 ? 0 : count[hottest]);
		}

		public long keys() {
			return ids.length;
		}

		/** The {@code index}-th id written, ascending. */
		public long id(int index) {
			return ids[index];
		}

		public long lastRecord(long id) {
			int seq = lastRecord[(int) id];
			if (seq < 0) {
				throw new IllegalArgumentException("no record of " + records + " writes id " + id);
			}
			return seq;
		}
	}

	/**
	 * Exactly {@code valueBytes} ASCII characters: a mix of the id and field, then the
	 * version.
	 */
	private String value(long id, long version, int field) {
		long mixed = (id * 0x9E3779B97F4A7C15L) ^ ((long) field << 56);
		String tail = "-r" + version;
		StringBuilder value = new StringBuilder(valueBytes);
		String hex = Long.toHexString(mixed | Long.MIN_VALUE);
		while (value.length() < valueBytes - tail.length()) {
			value.append(hex, 0, Math.min(hex.length(), valueBytes - tail.length() - value.length()));
		}
		return value.append(tail).toString();
	}

}
