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
package io.sawmill.listener;

/**
 * With {@link Delivery#EXACTLY_ONCE}: what a newly assigned partition does when it starts
 * below its watermark in Redis (on a Redis Cluster: at all) from an offset Sawmill did
 * not commit (a group reset with {@code kafka-consumer-groups --reset-offsets}: Sawmill
 * tells by the metadata it commits with every offset), or without a committed offset and
 * with a watermark past the partition's end (a re-created topic). Either way the reset is
 * logged and counted ({@code sawmill.offset.resets}); a record is never skipped silently.
 */
public enum OffsetReset {

	/**
	 * The partition's watermark is moved back to the offset it starts from (on a Redis
	 * Cluster, the partition starts a new generation of its slots' watermarks), so every
	 * record from there on is written again: what a reset to replay a topic asks for, and
	 * what a re-created topic's new records need. Non-idempotent writes ({@code INCR},
	 * list pushes) then count the replayed records again. The default.
	 */
	REPLAY,

	/**
	 * The partition's batches fail (nothing written, nothing committed, polled again
	 * after the redelivery backoff) until an operator decides: reset the offsets to the
	 * watermark or later, or delete the watermark key to replay (on a Redis Cluster: set
	 * {@code REPLAY}). For data where counting a record twice is worse than stopping.
	 */
	REFUSE

}
