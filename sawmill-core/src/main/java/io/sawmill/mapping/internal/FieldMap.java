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

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;

/**
 * A hash's fields as the built-in mappers hand them to {@code HSET}: names and values in
 * two arrays, in the order they were added. Like a {@code LinkedHashMap<byte[], byte[]>},
 * a name is one array (arrays are equal only to themselves), and adding a name again
 * replaces its value in place (two paths can read alike: {@code a.b} nested and a name
 * {@code "a.b"}). It keeps what a batch holds until Redis acknowledged it small: two
 * arrays per record instead of a hash table and an entry per field. Read-only once built;
 * not thread-safe while being built.
 */
public final class FieldMap extends AbstractMap<byte[], byte[]> {

	/**
	 * Up to this many fields, a name is found by a scan; beyond, through {@link #index}.
	 */
	static final int SCANNED = 16;

	private byte[][] names;

	private byte[][] values;

	private int size;

	/**
	 * Each name's position, once there are more than {@link #SCANNED} fields; null until
	 * then.
	 */
	private @Nullable IdentityHashMap<byte[], Integer> index;

	/**
	 * @param expected how many fields will be added (more are taken too)
	 */
	public FieldMap(int expected) {
		names = new byte[Math.max(1, expected)][];
		values = new byte[names.length][];
	}

	/**
	 * Adds a field, or replaces the value of {@code name} (the same array) when it was
	 * added before.
	 */
	void add(byte[] name, byte[] value) {
		int known = indexOf(name);
		if (known >= 0) {
			values[known] = value;
			return;
		}
		if (size == SCANNED) {
			index = new IdentityHashMap<>(SCANNED * 4);
			for (int i = 0; i < size; i++) {
				index.put(names[i], i);
			}
		}
		if (index != null) {
			index.put(name, size);
		}
		if (size == names.length) {
			names = Arrays.copyOf(names, size * 2);
			values = Arrays.copyOf(values, size * 2);
		}
		names[size] = name;
		values[size] = value;
		size++;
	}

	@Override
	public int size() {
		return size;
	}

	/** The name of the field at {@code position}, in the order the fields were added. */
	public byte[] name(int position) {
		return names[position];
	}

	/** The value of the field at {@code position}. */
	public byte[] value(int position) {
		return values[position];
	}

	/**
	 * Whether {@code other} names the same fields as the same arrays, in the same order.
	 */
	public boolean sameNames(FieldMap other) {
		if (other.size != size) {
			return false;
		}
		for (int i = 0; i < size; i++) {
			if (names[i] != other.names[i]) {
				return false;
			}
		}
		return true;
	}

	@Override
	public boolean containsKey(Object name) {
		return indexOf(name) >= 0;
	}

	@Override
	public byte @Nullable [] get(Object name) {
		int at = indexOf(name);
		return at < 0 ? null : values[at];
	}

	private int indexOf(Object name) {
		if (index != null) {
			Integer known = index.get(name);
			return known == null ? -1 : known;
		}
		for (int i = 0; i < size; i++) {
			if (names[i] == name) {
				return i;
			}
		}
		return -1;
	}

	@Override
	public void forEach(BiConsumer<? super byte[], ? super byte[]> action) {
		for (int i = 0; i < size; i++) {
			action.accept(names[i], values[i]);
		}
	}

	@Override
	public Set<Entry<byte[], byte[]>> entrySet() {
		return new AbstractSet<>() {

			@Override
			public int size() {
				return size;
			}

			@Override
			public Iterator<Entry<byte[], byte[]>> iterator() {
				return new Iterator<>() {

					private int next;

					@Override
					public boolean hasNext() {
						return next < size;
					}

					@Override
					public Entry<byte[], byte[]> next() {
						if (next >= size) {
							throw new NoSuchElementException();
						}
						int at = next++;
						return new SimpleImmutableEntry<>(names[at], values[at]);
					}
				};
			}
		};
	}

}
