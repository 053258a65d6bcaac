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
package io.sawmill.testkit;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Deterministic JSON user events, the same for a given id every time, and the Redis hash
 * Sawmill's JSON mapper must make of each ({@code user:{userId}}, nested objects
 * flattened with dots, arrays as JSON text). Used by the demo, the integration tests and
 * the benchmarks.
 */
public final class SampleEvents {

	/** The key template the events are written with. */
	public static final String KEY_TEMPLATE = "user:{userId}";

	private static final String[] CITIES = { "Lisbon", "Oslo", "Turin", "Ghent", "Cork", "Lyon", "Graz", "Porto" };

	private SampleEvents() {
	}

	public static String userId(long id) {
		return "u" + id;
	}

	public static String key(long id) {
		return "user:" + userId(id);
	}

	/**
	 * The event with the given id; {@code version} lets a later event of the same key
	 * differ.
	 */
	public static byte[] json(long id, int version) {
		Map<String, String> hash = hash(id, version);
		String json = "{\"userId\":\"" + hash.get("userId") + "\",\"name\":\"" + hash.get("name") + "\",\"score\":"
				+ hash.get("score") + ",\"active\":" + hash.get("active") + ",\"address\":{\"city\":\""
				+ hash.get("address.city") + "\",\"zip\":\"" + hash.get("address.zip") + "\"},\"tags\":"
				+ hash.get("tags") + ",\"nickname\":null}";
		return json.getBytes(StandardCharsets.UTF_8);
	}

	public static byte[] json(long id) {
		return json(id, 0);
	}

	/** The fields Redis must hold for {@link #json(long, int)}. */
	public static Map<String, String> hash(long id, int version) {
		long mixed = (id * 0x9E3779B97F4A7C15L) ^ version;
		Map<String, String> hash = new LinkedHashMap<>();
		hash.put("userId", userId(id));
		hash.put("name", "user-" + Long.toHexString(Math.abs(mixed % 1_000_000_007L)) + "-v" + version);
		hash.put("score", Long.toString(Math.floorMod(mixed, 100_000)));
		hash.put("active", Boolean.toString((mixed & 1) == 0));
		hash.put("address.city", CITIES[Math.floorMod(mixed >>> 3, CITIES.length)]);
		hash.put("address.zip", String.format("%05d", Math.floorMod(mixed >>> 7, 100_000)));
		hash.put("tags", "[\"t" + Math.floorMod(id, 7) + "\",\"v" + version + "\"]");
		return hash;
	}

	public static Map<String, String> hash(long id) {
		return hash(id, 0);
	}

}
