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
package io.sawmill.mapping.route;

/**
 * The Redis data type a route writes, each with what a tombstone (a record with a null
 * value) does and whether writing a record twice leaves Redis as writing it once.
 * Delivery is at least once by default: a record whose batch is retried or re-polled
 * after a crash is written again, so a non-idempotent type ({@link #LIST},
 * {@link #STREAM}) can repeat an element, unless {@code sawmill.delivery=exactly-once}
 * skips the records whose writes Redis already applied.
 */
public enum RedisType {

	/**
	 * {@code HSET key field value …} of the value's flattened fields ({@link HashUpdate}
	 * decides whether fields absent from the value stay); tombstone: {@code DEL key}.
	 * Idempotent.
	 */
	HASH,

	/**
	 * {@code SET key value [PX ttl]} of the whole value, or of one field
	 * ({@code value-field}); tombstone: {@code DEL key}. Idempotent.
	 */
	STRING,

	/**
	 * {@code ZADD key score member}, the score from {@code score-field}, the member from
	 * the {@code member} template; tombstone: {@code ZREM key member}, so the key and
	 * member templates must not read value fields (e.g. {@code member: "{@key}"}).
	 * Idempotent.
	 */
	SORTED_SET,

	/**
	 * {@code SADD key member}, the member from the {@code member} template; tombstone:
	 * {@code SREM key member} (as for {@link #SORTED_SET}, from templates that do not
	 * read the value). Idempotent.
	 */
	SET,

	/**
	 * {@code LPUSH} or {@code RPUSH key element} ({@link ListEnd}), the element the whole
	 * value or {@code value-field}, then {@code LTRIM} to {@code max-length} newest
	 * elements when set; tombstone: nothing is written (counted as skipped), since the
	 * element to remove is not known. Not idempotent: a redelivered record is pushed
	 * again.
	 */
	LIST,

	/**
	 * {@code XADD key [MAXLEN ~ max-length] * field value …} of the value's flattened
	 * fields; tombstone: nothing is written (skipped). {@code MAXLEN ~} trims whole
	 * stream nodes only, so the stream keeps at least {@code max-length} entries and up
	 * to one node ({@code stream-node-max-entries}, 100 by default) more. Not idempotent:
	 * a redelivered record is appended again, with a new id.
	 */
	STREAM,

	/** {@code DEL key} for every record, value or tombstone. Idempotent. */
	DELETE;

}
