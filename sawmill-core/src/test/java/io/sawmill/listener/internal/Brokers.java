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

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * What the offset-reset check reads of the broker, as the tests of exactly-once writes
 * need it: partition {@code p} starts at offset {@code p * 100}.
 */
final class Brokers {

	private Brokers() {
	}

	/** As committed by Sawmill: each partition at its first record's offset. */
	static final OffsetResets.Broker COMMITTED_BY_SAWMILL = broker(
			partition -> new OffsetAndMetadata(partition.partition() * 100L, OffsetCommits.METADATA), 1_000);

	/**
	 * As {@code kafka-consumer-groups --reset-offsets} commits: each partition at its
	 * first record's offset, without metadata.
	 */
	static final OffsetResets.Broker RESET_BY_A_TOOL = broker(
			partition -> new OffsetAndMetadata(partition.partition() * 100L), 1_000);

	/** Nothing committed; every partition's log ends at {@code end}. */
	static OffsetResets.Broker nothingCommitted(long end) {
		return broker(partition -> null, end);
	}

	private static OffsetResets.Broker broker(Function<TopicPartition, OffsetAndMetadata> committed, long end) {
		return new OffsetResets.Broker() {
			@Override
			public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
				Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
				partitions.forEach(partition -> {
					OffsetAndMetadata offset = committed.apply(partition);
					if (offset != null) {
						offsets.put(partition, offset);
					}
				});
				return offsets;
			}

			@Override
			public Map<TopicPartition, Long> endOffsets(Set<TopicPartition> partitions) {
				Map<TopicPartition, Long> ends = new HashMap<>();
				partitions.forEach(partition -> ends.put(partition, end));
				return ends;
			}
		};
	}

}
