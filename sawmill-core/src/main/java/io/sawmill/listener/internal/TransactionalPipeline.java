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

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.sawmill.listener.Delivery;
import io.sawmill.listener.OffsetReset;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.TransactionalBatchWriter;

/**
 * The write step with {@link Delivery#EXACTLY_ONCE}: a batch's records whose writes Redis
 * applied before are skipped ({@link AppliedOffsets}); the others go in one pipelined
 * round trip, one {@code MULTI}/{@code EXEC} transaction per {@link Fence} (a partition,
 * or on a Redis Cluster a partition's records in one hash slot) that also moves the
 * fence's watermark ({@link PartitionTransactions}). Nothing is retried record by record:
 * when a transaction did not apply, or may not have, the batch fails whole
 * ({@link BatchWriteFailedException}), its partitions' watermarks are read again before
 * it is written again, and what did apply is then skipped. Each transaction is fenced by
 * the watermark this thread knows: when another writer moved it (a consumer that took the
 * partition over while this one stalled, a transaction applied late on a replaced
 * connection), the transaction applies nothing and its records are counted and logged
 * {@link RecordOutcome#FENCED}, then read again like any failed batch. A partition whose
 * records all came again still gets a transaction, one that sets its watermark again: the
 * batch is then committed only after a round trip the writer confirmed, replicas included
 * ({@code wait-for-replicas}), never on the strength of a read alone.
 * <p>
 * Every round trip goes through the {@link RedisCircuit}. Called from listener threads;
 * the calling thread's {@link AppliedOffsets} is passed in, and nothing is kept between
 * calls.
 */
final class TransactionalPipeline {

	private static final Logger log = LoggerFactory.getLogger(TransactionalPipeline.class);

	private final TransactionalBatchWriter writer;

	private final String group;

	private final RedisCircuit circuit;

	private final SawmillMetrics metrics;

	private final boolean coalesce;

	private final OffsetReset offsetReset;

	TransactionalPipeline(TransactionalBatchWriter writer, ListenerConfig config, RedisCircuit circuit,
			SawmillMetrics metrics) {
		this.writer = writer;
		this.group = config.groupId();
		this.circuit = circuit;
		this.metrics = metrics;
		this.coalesce = config.coalesceWrites();
		this.offsetReset = config.offsetReset();
	}

	/** A consumer thread's own watermarks, for {@link #write}. */
	AppliedOffsets newAppliedOffsets() {
		return new AppliedOffsets(group, writer, offsetReset, metrics);
	}

	/**
	 * Writes the records not applied yet, each partition's share in one transaction with
	 * its watermark.
	 * @param records the batch's records with writes, in poll order
	 * @param applied the calling thread's watermarks
	 * @param broker the consumer's committed and end offsets, for the reset check
	 * @return each record's outcome: the records skipped as duplicates, those Redis
	 * rejected inside an applied transaction (this time or, not yet dead-lettered,
	 * before) as dead letters, the stale ones
	 * @throws BatchWriteFailedException when the watermarks cannot be read, the circuit
	 * is open, or a transaction did not apply or may not have: nothing of the batch may
	 * be committed
	 */
	BatchOutcomes write(List<MappedRecord> records, AppliedOffsets applied, OffsetResets.Broker broker) {
		BatchOutcomes written = new BatchOutcomes();
		if (records.isEmpty()) {
			return written;
		}
		AppliedOffsets.Split split;
		try {
			split = applied.split(records, broker);
		}
		catch (RuntimeException ex) {
			throw new BatchWriteFailedException("could not start from the partitions' watermarks in Redis: " + ex, ex);
		}
		split.duplicates().forEach(record -> written.duplicate(record.record()));
		applied.unpublished().among(split.duplicates()).forEach(written::deadLetter);
		split.unfenced().forEach(written::deadLetter);
		if (split.fresh().isEmpty() && split.duplicates().isEmpty()) {
			return written;
		}
		try {
			circuit.acquirePermission();
		}
		catch (CallNotPermittedException ex) {
			throw new BatchWriteFailedException("the Redis circuit is open; the batch will be polled again", ex);
		}
		// a partition with duplicates only sets its watermark again: confirmed like any
		// write before its commit
		PartitionTransactions transactions = PartitionTransactions.plan(split.fresh(), split.duplicates(),
				applied::fenceOf, applied.watermarks(), applied::key, coalesce);
		long started = System.nanoTime();
		PipelineResult result;
		try {
			result = writer.sendTransactions(transactions.transactions()).await();
		}
		catch (RuntimeException ex) {
			circuit.onError(System.nanoTime() - started, ex);
			applied.forget(partitions(records));
			throw new BatchWriteFailedException("Redis failed a batch's transactions: " + ex, ex);
		}
		long took = System.nanoTime() - started;
		metrics.pipelineCompleted(Duration.ofNanos(took), result.commands());
		metrics.writesCoalesced(transactions.coalesced());
		Outcomes outcomes = Outcomes.of(transactions.plan(), result);
		circuit.onReplies(took, outcomes);
		applied.applied(transactions.applied(result));
		applied.unpublished().keep(outcomes.permanent());
		if (outcomes.fenced() > 0) {
			fenced(outcomes);
		}
		if (outcomes.hasTransientFailures()) {
			applied.forget(partitions(outcomes.retry()));
			log.warn(
					"{} of {} records were not applied by Redis, or may not have been ({}); the batch is polled again, "
							+ "and the records whose transaction applied are then skipped",
					outcomes.retry().size(), records.size(), result.failures().get(0).cause().toString());
			throw new BatchWriteFailedException(1, result);
		}
		written.add(outcomes);
		return written;
	}

	/**
	 * Counts and logs the records whose transaction its fence refused: their partition's
	 * watermark in Redis was moved by another writer.
	 */
	private void fenced(Outcomes outcomes) {
		List<MappedRecord> records = new ArrayList<>(outcomes.fenced());
		outcomes.forEach(RecordOutcome.FENCED, records::add);
		records.forEach(record -> metrics.records(record.record().topic(), RecordOutcome.FENCED, 1));
		log.warn("{} records of partitions {} were fenced: their watermark in Redis is not the one this consumer "
				+ "expected, because another writer applied records of theirs first (a consumer that took the partitions "
				+ "over while this one stalled, or a transaction applied late on a replaced connection); nothing of "
				+ "them was applied, and they are read again", records.size(), partitions(records));
	}

	private static Set<TopicPartition> partitions(List<MappedRecord> records) {
		Set<TopicPartition> partitions = new LinkedHashSet<>();
		records.forEach(record -> partitions.add(PartitionTransactions.partitionOf(record.record())));
		return partitions;
	}

}
