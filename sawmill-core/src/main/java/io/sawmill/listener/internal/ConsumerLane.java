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

import java.util.Collection;
import java.util.List;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.metrics.internal.SawmillMetrics;

/**
 * The data path of one consumer thread, top to bottom: poll → map every record
 * ({@link MappedBatch}) → write, as the thread's {@link DeliveryMode} does it
 * ({@link AtLeastOnce}: pipelined round trips, retried record by record, coalesced per
 * key when configured; {@link ExactlyOnce}: one transaction per partition with its
 * watermark) → dead-letter what cannot be written, commit the batch's offsets and count
 * each record's outcome ({@link BatchCommit}). {@link PipelineBatchListener} forwards the
 * thread's polls, idle events and rebalances here.
 * <p>
 * The commit contract: the batch's offsets are committed only when every record of the
 * batch is in Redis (acknowledged by Redis), dead-lettered (acknowledged by the
 * dead-letter destination) or skipped (mapped to no writes). Otherwise nothing of the
 * batch is committed and it is polled again ({@link Redelivery}, through
 * {@link RedeliverBatchErrorHandler} when {@link #poll} throws). A batch the mode keeps
 * in flight is finished before its partitions are revoked or lost, when the consumer
 * closes, and when the container is idle.
 * <p>
 * Thread-confined: one instance per consumer thread.
 */
final class ConsumerLane {

	private final RecordMapper mapper;

	private final int maxRecordBytes;

	private final int batchSize;

	private final BatchCommit commit;

	private final DeliveryMode mode;

	/**
	 * @param mode the delivery mode for this thread's {@link BatchCommit}, e.g.
	 * {@link AtLeastOnce#with} or {@link ExactlyOnce#with}
	 */
	ConsumerLane(RecordMapper mapper, ListenerConfig config, Function<BatchCommit, DeliveryMode> mode,
			DeadLetterPublisher deadLetters, SawmillMetrics metrics, Redelivery redelivery) {
		this.mapper = mapper;
		this.maxRecordBytes = config.maxRecordBytes();
		this.batchSize = config.batchSize();
		this.commit = new BatchCommit(deadLetters, metrics, redelivery);
		this.mode = mode.apply(commit);
	}

	/**
	 * A polled batch: maps it and hands it to the delivery mode, which writes it and
	 * commits it (or the batch in flight before it).
	 * @throws RuntimeException when a batch cannot be committed
	 * ({@link InFlightBatchFailedException} when the batch in flight cannot): nothing of
	 * it is committed
	 */
	void poll(List<ConsumerRecord<byte[], byte[]>> records, Consumer<?, ?> consumer) {
		long polled = System.nanoTime();
		MappedBatch mapped = MappedBatch.map(records, mapper, maxRecordBytes);
		mode.write(new PolledBatch(records, mapped, consumer, records.size() >= batchSize, polled));
	}

	/**
	 * The container is idle (nothing polled for a while): a batch left in flight is
	 * finished now.
	 */
	void idle() {
		mode.finishInFlight();
	}

	/** Before {@code partitions} are revoked (also when the consumer closes). */
	void beforeRevoke(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		mode.finishInFlight();
		commit.beforeRevoke(consumer, partitions);
		mode.forget(partitions);
	}

	/** {@code partitions} were taken away without a chance to commit. */
	void lost(Collection<TopicPartition> partitions) {
		mode.finishInFlight();
		commit.lost(partitions);
		mode.forget(partitions);
	}

}
