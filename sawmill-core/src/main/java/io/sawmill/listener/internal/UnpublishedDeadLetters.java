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

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.listener.Delivery;

/**
 * With {@link Delivery#EXACTLY_ONCE}, the records Redis rejected inside a transaction
 * that applied, by partition and offset, until their batch is committed with their dead
 * letters: such a record is below its watermark when it comes again, so it is skipped,
 * and its dead letter is published again from here.
 * <p>
 * Thread-confined: owned by one consumer thread's {@link AppliedOffsets}.
 */
final class UnpublishedDeadLetters {

	private final Map<TopicPartition, Map<Long, DeadLetter>> unpublished = new HashMap<>();

	/**
	 * Records Redis rejected inside applied transactions: kept until {@link #published},
	 * since they are skipped if they come again.
	 */
	void keep(List<DeadLetter> deadLetters) {
		for (DeadLetter deadLetter : deadLetters) {
			unpublished.computeIfAbsent(PartitionTransactions.partitionOf(deadLetter.record()), p -> new HashMap<>())
				.put(deadLetter.record().offset(), deadLetter);
		}
	}

	/**
	 * The dead letters kept by {@link #keep} for records among {@code duplicates}: to be
	 * published again.
	 */
	List<DeadLetter> among(List<MappedRecord> duplicates) {
		if (unpublished.isEmpty()) {
			return List.of();
		}
		List<DeadLetter> again = new ArrayList<>(0);
		for (MappedRecord record : duplicates) {
			Map<Long, DeadLetter> partition = unpublished.get(PartitionTransactions.partitionOf(record.record()));
			DeadLetter deadLetter = partition != null ? partition.get(record.record().offset()) : null;
			if (deadLetter != null) {
				again.add(new DeadLetter(record.record(), deadLetter.reason(), deadLetter.cause()));
			}
		}
		return again;
	}

	/** The batch holding these dead letters was committed: they need not be kept. */
	void published(List<DeadLetter> deadLetters) {
		for (DeadLetter deadLetter : deadLetters) {
			Map<Long, DeadLetter> partition = unpublished.get(PartitionTransactions.partitionOf(deadLetter.record()));
			if (partition != null) {
				partition.remove(deadLetter.record().offset());
				if (partition.isEmpty()) {
					unpublished.remove(PartitionTransactions.partitionOf(deadLetter.record()));
				}
			}
		}
	}

	/** These partitions are no longer this thread's: their dead letters are dropped. */
	void revoked(Collection<TopicPartition> partitions) {
		unpublished.keySet().removeAll(partitions);
	}

}
