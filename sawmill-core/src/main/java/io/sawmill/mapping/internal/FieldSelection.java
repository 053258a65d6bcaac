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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which flattened fields a mapping's {@code fields} option selects, and their names as
 * sent to Redis. Records of a topic repeat the same paths, so the answer for a path is
 * kept for up to {@link #CACHED_NAMES} of them, and each record's writes share the same
 * name arrays, which nothing changes. A record's selected fields are a {@link FieldMap}.
 * A value whose names vary per record (a map keyed by ids, say) stops filling the cache
 * there and has its names encoded per record. Thread-safe.
 */
public final class FieldSelection {

	/** Paths whose answer is kept. */
	public static final int CACHED_NAMES = 1024;

	private static final byte[] NOT_SELECTED = new byte[0];

	private final List<String> selected;

	private final String separator;

	private final Map<String, byte[]> names = new ConcurrentHashMap<>();

	/**
	 * @param selected the selected top-level fields; empty selects every path
	 */
	public FieldSelection(List<String> selected, String separator) {
		this.selected = List.copyOf(selected);
		this.separator = separator;
	}

	/** The selected fields by their UTF-8 names, in document order. */
	public Map<byte[], byte[]> select(FlatFields all) {
		FieldMap fields = new FieldMap(all.size());
		for (int i = 0; i < all.size(); i++) {
			byte[] name = name(all.path(i));
			if (name != NOT_SELECTED) {
				fields.add(name, all.value(i));
			}
		}
		return fields;
	}

	/** Whether {@code path} is selected. */
	public boolean selects(String path) {
		return selects(selected, path, separator);
	}

	private byte[] name(String path) {
		byte[] name = names.get(path);
		if (name == null) {
			name = selects(path) ? path.getBytes(StandardCharsets.UTF_8) : NOT_SELECTED;
			if (names.size() < CACHED_NAMES) {
				names.putIfAbsent(path, name);
			}
		}
		return name;
	}

	/**
	 * Whether {@code path} is one of the {@code selected} top-level fields or lies inside
	 * one of them ({@code address.city} inside {@code address}); an empty selection
	 * selects every path.
	 */
	public static boolean selects(List<String> selected, String path, String separator) {
		if (selected.isEmpty()) {
			return true;
		}
		for (String wanted : selected) {
			if (path.equals(wanted) || (path.startsWith(wanted) && path.startsWith(separator, wanted.length()))) {
				return true;
			}
		}
		return false;
	}

}
