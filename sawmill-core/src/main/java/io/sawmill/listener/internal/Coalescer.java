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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.sawmill.mapping.RedisWrite;

/**
 * The coalesce step ({@code sawmill.coalesce-writes}): a batch's writes to one key
 * collapse into the fewest commands that leave that key in the same final state, a pure
 * function from records to a {@link WritePlan}.
 * <p>
 * Only {@link RedisWrite.HashSet}, {@link RedisWrite.Expire} and
 * {@link RedisWrite.Delete} are merged: their effect is known ({@link KeySegment} says
 * how they fold). Any other write, a {@link RedisWrite.Command}, is sent as it is and is
 * a barrier for its key and for every key named among its arguments: such a key's writes
 * before it are sent before it, those after it are folded separately and sent after it.
 * Writes of different keys are never merged. Each key's folded writes take the place of
 * the key's first write since its last barrier, so per key the commands keep the order of
 * the records; across keys only the built-in single-key writes move, which cannot change
 * another key. A command that touches a key it does not name (a script that computes key
 * names) is outside what coalescing can keep in order.
 * <p>
 * A record is carried by every command its writes were folded into; a record writing
 * several keys is carried by commands of each, and fails if any of them fails.
 */
final class Coalescer {

	private Coalescer() {
	}

	/**
	 * @param records the records of one round trip, in poll order
	 * @return their coalesced writes
	 */
	static WritePlan plan(List<MappedRecord> records) {
		// each slot is a command to send (a barrier) or the folded writes of one key
		// segment
		List<Object> slots = new ArrayList<>(records.size() * 2);
		Map<ByteBuffer, KeySegment> open = new HashMap<>(records.size() * 2);
		// the segment of the previous write, while open: a record's HSET and EXPIRE share
		// their key array
		KeySegment previous = null;
		for (int r = 0; r < records.size(); r++) {
			for (RedisWrite write : records.get(r).writes()) {
				if (KeySegment.folds(write)) {
					KeySegment segment = previous != null && previous.key() == write.key() ? previous : null;
					if (segment == null) {
						ByteBuffer key = ByteBuffer.wrap(write.key());
						segment = open.get(key);
						if (segment == null) {
							segment = new KeySegment(write.key());
							open.put(key, segment);
							slots.add(segment);
						}
					}
					segment.add(write, r);
					previous = segment;
				}
				else {
					open.remove(ByteBuffer.wrap(write.key()));
					closeNamedKeys(write, open);
					slots.add(new Barrier(write, new int[] { r }));
					previous = null;
				}
			}
		}
		List<RedisWrite> writes = new ArrayList<>(slots.size() * 2);
		List<int[]> carried = new ArrayList<>(slots.size() * 2);
		for (Object slot : slots) {
			if (slot instanceof Barrier barrier) {
				writes.add(barrier.write());
				carried.add(barrier.record());
			}
			else {
				((KeySegment) slot).fold(writes, carried);
			}
		}
		return new WritePlan(records, writes, carried);
	}

	/**
	 * A command may write or read keys among its arguments ({@code RENAME key newkey},
	 * {@code COPY}, {@code SMOVE}, …): it is a barrier for every key it names, as far as
	 * the coalescer can tell. An argument that only looks like a key costs a merge, never
	 * correctness.
	 */
	private static void closeNamedKeys(RedisWrite write, Map<ByteBuffer, KeySegment> open) {
		if (write instanceof RedisWrite.Command command && !open.isEmpty()) {
			for (byte[] arg : command.args()) {
				open.remove(ByteBuffer.wrap(arg));
			}
		}
	}

	/** A write sent as it is, carrying its record. */
	private record Barrier(RedisWrite write, int[] record) {
	}

}
