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

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.TopicPartition;

import io.sawmill.listener.Delivery;
import io.sawmill.redis.internal.TransactionalBatchWriter.Keyspace;

/**
 * The watermark that guards a record's writes with {@link Delivery#EXACTLY_ONCE}
 * ({@link AppliedOffsets}): the offset after the last record of a partition whose writes
 * Redis applied, in one key that each transaction moves together with its writes. One per
 * partition on one server; one per partition and hash slot on a Redis Cluster, where a
 * transaction's keys must share a slot, so that the key lies in the slot of the writes it
 * guards.
 */
sealed interface Fence permits Fence.OfPartition, Fence.OfSlot {

	/** The partition whose records the watermark guards. */
	TopicPartition partition();

	/** The watermark's key in Redis, for the consumer group {@code group}. */
	byte[] key(String group);

	/**
	 * A partition's watermark on one server ({@link Keyspace#ONE_SERVER}):
	 * {@code sawmill:applied:{<group>}:<topic>:<partition>}.
	 */
	record OfPartition(TopicPartition partition) implements Fence {

		@Override
		public byte[] key(String group) {
			return ("sawmill:applied:{" + group + "}:" + partition.topic() + ":" + partition.partition())
				.getBytes(StandardCharsets.UTF_8);
		}

	}

	/**
	 * A partition's watermark in one hash slot of a Redis Cluster
	 * ({@link Keyspace#CLUSTER}):
	 * {@code sawmill:applied:{<tag>}:<group>:<topic>:<partition>:<generation>}, the tag
	 * ({@link Keyspace#tagOf}) putting it in {@code slot}.
	 *
	 * @param generation the partition's generation: replaying a partition whose offsets
	 * were reset starts a new one, whose watermarks start empty
	 */
	record OfSlot(TopicPartition partition, int slot, long generation) implements Fence {

		@Override
		public byte[] key(String group) {
			return ("sawmill:applied:{" + Keyspace.tagOf(slot) + "}:" + group + ":" + partition.topic() + ":"
					+ partition.partition() + ":" + generation)
				.getBytes(StandardCharsets.UTF_8);
		}

		/**
		 * The key of a partition's generation on a Redis Cluster:
		 * {@code sawmill:generation:{<group>}:<topic>:<partition>}; a missing key holds
		 * 0.
		 */
		static byte[] generationKey(String group, TopicPartition partition) {
			return ("sawmill:generation:{" + group + "}:" + partition.topic() + ":" + partition.partition())
				.getBytes(StandardCharsets.UTF_8);
		}

	}

}
