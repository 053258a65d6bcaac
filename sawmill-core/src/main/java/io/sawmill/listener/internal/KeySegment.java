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
package io.sawmill.listener.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.internal.FieldMap;

/**
 * The {@code HSET}, {@code EXPIRE} and {@code DEL} writes of one key between two barriers
 * of a batch ({@link Coalescer}), in order, and their fold: the fewest commands that
 * leave the key as the writes one by one would, whatever the key held before (absent, a
 * hash with or without a TTL, or another type).
 * <p>
 * The fold follows from what each command does: {@code DEL} removes the key, its fields
 * and TTL, so the last {@code DEL} replaces every write before it; {@code HSET} creates a
 * missing key without a TTL and keeps the TTL of an existing one; {@code EXPIRE} sets the
 * TTL of an existing key of any type and does nothing to a missing one. Hence, after the
 * last {@code DEL} (if any): the {@code HSET}s merge into one (the later value of a field
 * wins, fields compared by content); the last {@code EXPIRE} after the first {@code HSET}
 * replaces every {@code EXPIRE}; an {@code EXPIRE} before the first {@code HSET} is sent
 * before it when no later one replaces it (moved after the {@code HSET} it would give a
 * TTL to a key that had none), and is dropped when a {@code DEL} before it leaves it
 * nothing to expire. A write that is replaced is carried by the command that replaces it.
 */
final class KeySegment {

	private final byte[] key;

	private final List<RedisWrite> writes = new ArrayList<>(2);

	private int[] records = new int[2];

	KeySegment(byte[] key) {
		this.key = key;
	}

	/** The key, as the array of the segment's first write. */
	byte[] key() {
		return key;
	}

	/**
	 * Whether {@code write} is one the fold knows: a built-in {@code HSET},
	 * {@code EXPIRE} or {@code DEL}.
	 */
	static boolean folds(RedisWrite write) {
		return write instanceof RedisWrite.HashSet || write instanceof RedisWrite.Expire
				|| write instanceof RedisWrite.Delete;
	}

	/**
	 * Adds the next write of the key, written by record {@code record} (not lower than
	 * the last one added).
	 */
	void add(RedisWrite write, int record) {
		if (writes.size() == records.length) {
			records = Arrays.copyOf(records, records.length * 2);
		}
		records[writes.size()] = record;
		writes.add(write);
	}

	/**
	 * Appends the folded commands to {@code out} and the records each carries to
	 * {@code carried}.
	 */
	void fold(List<RedisWrite> out, List<int[]> carried) {
		if (writes.size() == 1) {
			out.add(writes.get(0));
			carried.add(new int[] { records[0] });
			return;
		}
		if (writes.size() == 2 && writes.get(0) instanceof RedisWrite.HashSet
				&& writes.get(1) instanceof RedisWrite.Expire) {
			// the common segment, usually one record's: nothing merges, both are sent as
			// they are
			int[] first = { records[0] };
			out.add(writes.get(0));
			carried.add(first);
			out.add(writes.get(1));
			carried.add(records[1] == records[0] ? first : new int[] { records[1] });
			return;
		}
		int lastDelete = -1;
		for (int i = 0; i < writes.size(); i++) {
			if (writes.get(i) instanceof RedisWrite.Delete) {
				lastDelete = i;
			}
		}
		Records deleted = new Records();
		Records hashSetRecords = new Records();
		Records expiresBefore = new Records();
		Records expiresAfter = new Records();
		List<RedisWrite.HashSet> hashSets = new ArrayList<>(writes.size());
		RedisWrite lastExpireBefore = null;
		RedisWrite lastExpireAfter = null;
		for (int i = 0; i < writes.size(); i++) {
			RedisWrite write = writes.get(i);
			if (i <= lastDelete) {
				deleted.add(records[i]);
			}
			else if (write instanceof RedisWrite.HashSet hashSet) {
				hashSets.add(hashSet);
				hashSetRecords.add(records[i]);
			}
			else if (hashSets.isEmpty()) {
				lastExpireBefore = write;
				expiresBefore.add(records[i]);
			}
			else {
				lastExpireAfter = write;
				expiresAfter.add(records[i]);
			}
		}
		if (lastDelete >= 0) {
			// after the DEL, an EXPIRE before the next HSET finds no key: it does nothing
			deleted.addAll(expiresBefore);
			emit(out, carried, writes.get(lastDelete), deleted);
		}
		else if (lastExpireBefore != null && lastExpireAfter == null) {
			emit(out, carried, lastExpireBefore, expiresBefore);
		}
		else if (lastExpireBefore != null) {
			// replaced by the last EXPIRE, sent after the HSET
			expiresBefore.addAll(expiresAfter);
			expiresAfter = expiresBefore;
		}
		if (!hashSets.isEmpty()) {
			emit(out, carried, merge(hashSets), hashSetRecords);
		}
		if (lastExpireAfter != null) {
			emit(out, carried, lastExpireAfter, expiresAfter);
		}
	}

	private static void emit(List<RedisWrite> out, List<int[]> carried, RedisWrite write, Records records) {
		out.add(write);
		carried.add(records.toArray());
	}

	/**
	 * One {@code HSET} with every field of {@code hashSets}, each with its last value.
	 */
	private RedisWrite merge(List<RedisWrite.HashSet> hashSets) {
		RedisWrite.HashSet last = hashSets.get(hashSets.size() - 1);
		if (hashSets.size() == 1 || sameFieldArrays(hashSets, last)) {
			return last;
		}
		// byte[] keys hash by identity: compare fields by content
		Map<ByteBuffer, byte[]> fields = new LinkedHashMap<>();
		for (RedisWrite.HashSet hashSet : hashSets) {
			hashSet.fields().forEach((field, value) -> fields.put(ByteBuffer.wrap(field), value));
		}
		Map<byte[], byte[]> merged = new LinkedHashMap<>(fields.size() * 2);
		fields.forEach((field, value) -> merged.put(field.array(), value));
		return RedisWrite.hset(key, merged);
	}

	/**
	 * Whether every {@code HSET} names the same fields as {@code last}, as the same
	 * arrays in the same order: the usual case, since a mapper reuses its field names'
	 * arrays. Then every value of {@code last} is the last one of its field, and
	 * {@code last} is the merge.
	 */
	private static boolean sameFieldArrays(List<RedisWrite.HashSet> hashSets, RedisWrite.HashSet last) {
		if (last.fields() instanceof FieldMap lastFields) {
			for (int i = 0; i < hashSets.size() - 1; i++) {
				if (!(hashSets.get(i).fields() instanceof FieldMap fields) || !fields.sameNames(lastFields)) {
					return false;
				}
			}
			return true;
		}
		byte[][] names = last.fields().keySet().toArray(new byte[0][]);
		for (int i = 0; i < hashSets.size() - 1; i++) {
			Map<byte[], byte[]> fields = hashSets.get(i).fields();
			if (fields.size() != names.length) {
				return false;
			}
			int n = 0;
			for (byte[] name : fields.keySet()) {
				if (name != names[n++]) {
					return false;
				}
			}
		}
		return true;
	}

	/** Record indices added in ascending order, each kept once. */
	private static final class Records {

		private int[] indices = new int[2];

		private int size;

		void add(int record) {
			if (size > 0 && indices[size - 1] == record) {
				return;
			}
			if (size == indices.length) {
				indices = Arrays.copyOf(indices, size * 2);
			}
			indices[size++] = record;
		}

		void addAll(Records more) {
			for (int i = 0; i < more.size; i++) {
				add(more.indices[i]);
			}
		}

		int[] toArray() {
			return Arrays.copyOf(indices, size);
		}

	}

}
