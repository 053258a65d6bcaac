package io.sawmill.bench.jmh;

import java.nio.charset.StandardCharsets;

/** The end-to-end workload's record shape: id + 5 fields of 20 ASCII bytes. */
final class Records {

	private Records() {
	}

	static byte[] json(long id) {
		StringBuilder json = new StringBuilder("{\"id\":\"").append(id).append('"');
		for (int f = 1; f <= 5; f++) {
			json.append(",\"f").append(f).append("\":\"").append(value(id, f)).append('"');
		}
		return json.append('}').toString().getBytes(StandardCharsets.US_ASCII);
	}

	static String value(long id, int field) {
		String hex = Long.toHexString((id * 0x9E3779B97F4A7C15L) ^ field | Long.MIN_VALUE);
		return (hex + hex).substring(0, 20);
	}
}
