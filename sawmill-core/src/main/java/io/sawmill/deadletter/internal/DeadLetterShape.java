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
package io.sawmill.deadletter.internal;

/**
 * How much of the original record a dead letter carries. The publisher starts with
 * {@link #FULL} and falls back one step each time the dead-letter topic (or the
 * producer's own size check) refuses the dead letter as too large, so that a dead letter
 * is always published and its source partition never stalls.
 */
enum DeadLetterShape {

	/**
	 * The original key, value and headers plus the dead-letter headers: the record can be
	 * re-driven as it is.
	 */
	FULL,

	/**
	 * Without the value, marked with
	 * {@link KafkaDeadLetterPublisher#VALUE_DROPPED_HEADER}: the key, the original
	 * headers and the coordinates remain, so the record is found by offset in the source
	 * topic (while its retention keeps it).
	 */
	WITHOUT_VALUE,

	/**
	 * Without value, key and original headers, and with the reason and exception message
	 * shortened: only the coordinates and why. The last resort when even the key or
	 * headers are too large.
	 */
	COORDINATES_ONLY;

	DeadLetterShape smaller() {
		return this == FULL ? WITHOUT_VALUE : COORDINATES_ONLY;
	}

}
