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

import java.util.List;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One polled batch on its way through the data path: its records, what the map step made
 * of them, and the consumer that polled them. Immutable; on the consumer thread that
 * polled it.
 *
 * @param records the records as polled
 * @param mapped the map step's result ({@link MappedBatch})
 * @param consumer the consumer that polled them, which commits their offsets
 * @param behind whether the batch was full ({@code max.poll.records}): the consumer was
 * behind
 * @param polledNanos when it was polled, as {@link System#nanoTime()}
 */
record PolledBatch(List<ConsumerRecord<byte[], byte[]>> records, MappedBatch mapped, Consumer<?, ?> consumer,
		boolean behind, long polledNanos) {

	/** The records with writes, in poll order (so per partition in offset order). */
	List<MappedRecord> toWrite() {
		return mapped.toWrite();
	}
}
