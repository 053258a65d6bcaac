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
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The flattened scalar fields of one JSON value, in document order:
 * {@code address.city → Oslo}. Each path occurs once. Values are held as the UTF-8 bytes
 * Redis is sent, so a streamed string is encoded once, straight from the parser's buffer.
 * Small and append-only; a lookup is a scan, which for the few placeholders of a key
 * template costs less than building a hash map per record.
 */
public final class FlatFields {

	private String[] paths = new String[8];

	private byte[][] values = new byte[8][];

	private int size;

	private final boolean readAsTree;

	/**
	 * The paths whose value was JSON {@code null}, or null when there were none (the
	 * usual case).
	 */
	private @Nullable List<String> nulls;

	public FlatFields(boolean readAsTree) {
		this.readAsTree = readAsTree;
	}

	/**
	 * Whether the value took the slow path: read as a Jackson tree rather than as a token
	 * stream.
	 */
	public boolean readAsTree() {
		return readAsTree;
	}

	public void add(String path, String value) {
		add(path, value.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * @param value UTF-8, owned by these fields from now on
	 */
	public void add(String path, byte[] value) {
		if (size == paths.length) {
			paths = Arrays.copyOf(paths, size * 2);
			values = Arrays.copyOf(values, size * 2);
		}
		paths[size] = path;
		values[size] = value;
		size++;
	}

	public int size() {
		return size;
	}

	public String path(int index) {
		return paths[index];
	}

	/** The value's UTF-8 bytes; not to be changed, as a Redis write may hold them. */
	public byte[] value(int index) {
		return values[index];
	}

	/**
	 * The value at {@code path} as UTF-8, or null when the value has no such scalar
	 * field.
	 */
	public byte @Nullable [] get(@Nullable String path) {
		for (int i = 0; i < size; i++) {
			if (paths[i].equals(path)) {
				return values[i];
			}
		}
		return null;
	}

	/**
	 * Records that the value at {@code path} was JSON {@code null}: not a field, but a
	 * mapper may delete it.
	 */
	public void addNull(String path) {
		if (nulls == null) {
			nulls = new ArrayList<>(2);
		}
		nulls.add(path);
	}

	/** The paths whose value was JSON {@code null}, in document order. */
	public List<String> nulls() {
		return nulls == null ? List.of() : nulls;
	}

}
