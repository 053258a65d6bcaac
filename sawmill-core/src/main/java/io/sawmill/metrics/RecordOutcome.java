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
package io.sawmill.metrics;

import java.util.Locale;

/** What happened to a record; the {@code outcome} tag of {@code sawmill.records}. */
public enum RecordOutcome {

	/** Its writes were acknowledged by Redis and its offset committed. */
	WRITTEN,
	/** The mapper returned no writes; committed like the others. */
	SKIPPED,
	/**
	 * It could not be written (rejected by the mapper or by Redis) and the dead-letter
	 * topic is off: logged with its reason, committed.
	 */
	INVALID,
	/** Its batch failed in Redis and the record is being written again. */
	RETRIED,
	/** Sent to the dead-letter topic with its reason. */
	DEAD_LETTERED,
	/**
	 * A version-guarded write found a newer version in Redis and changed nothing
	 * ({@code sawmill.mapping.version}); committed like a written record, never
	 * dead-lettered.
	 */
	STALE,
	/**
	 * With {@code sawmill.delivery=exactly-once}: the record came again after its writes
	 * were applied (its offset is below its partition's watermark in Redis), so it was
	 * not written again; committed like a written record.
	 */
	DUPLICATE,
	/**
	 * With {@code sawmill.delivery=exactly-once}: the record's transaction applied
	 * nothing because its partition's watermark in Redis was not the one this consumer
	 * expected: another writer applied the partition's records first (a consumer that
	 * took the partition over while this one stalled, or a transaction Redis applied late
	 * on a replaced connection). The record is read again, like a retried one, and then
	 * skipped as a duplicate or written; also counted as retried.
	 */
	FENCED;

	/** The tag value: the constant's name in lower case. */
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
