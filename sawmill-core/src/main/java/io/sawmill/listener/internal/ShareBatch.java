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
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.redis.internal.FailureClass;
import io.sawmill.redis.internal.PipelineResult;

/**
 * One share-consumer poll, mapped: the writes of its records in poll order, then, from
 * the replies of their one round trip, one {@link Decision} per record. The classifier of
 * share mode, a pure function of the records, the mapper's answers and the replies:
 * <ul>
 * <li>every write acknowledged: {@link RecordOutcome#WRITTEN}, or
 * {@link RecordOutcome#STALE} when a version-guarded write changed nothing; no writes:
 * {@link RecordOutcome#SKIPPED}. Accepted.</li>
 * <li>a write failed with a {@link FailureClass#TRANSIENT} error:
 * {@link RecordOutcome#RETRIED}, released for the broker to deliver again, unless this
 * was its last delivery ({@link ShareConfig#deliveryLimit()}): then a dead letter, since
 * the broker would archive it unwritten.</li>
 * <li>rejected by the mapper, larger than the limit, or only
 * {@link FailureClass#PERMANENT} failures: a dead letter with its reason, rejected once
 * published.</li>
 * </ul>
 */
final class ShareBatch {

	private final List<ConsumerRecord<byte[], byte[]>> records;

	/** Each record's position in {@link #records}, by identity. */
	private final Map<ConsumerRecord<byte[], byte[]>, Integer> positions;

	private final MappedBatch mapped;

	private final List<RedisWrite> writes = new ArrayList<>();

	/** The record (its index in {@link #records}) of each write in {@link #writes}. */
	private int[] owners = new int[16];

	private ShareBatch(List<ConsumerRecord<byte[], byte[]>> records, MappedBatch mapped) {
		this.records = records;
		this.mapped = mapped;
		this.positions = new IdentityHashMap<>(records.size() * 2);
		for (int r = 0; r < records.size(); r++) {
			positions.put(records.get(r), r);
		}
		for (MappedRecord record : mapped.toWrite()) {
			int owner = position(record.record());
			for (RedisWrite write : record.writes()) {
				add(write, owner);
			}
		}
	}

	/**
	 * Maps each record as the consumer group mode does ({@link MappedBatch}): a value
	 * larger than {@code maxRecordBytes} or a mapper's exception makes it a dead letter
	 * with its reason. The mapper sees the record's delivery count
	 * ({@link ConsumerRecord#deliveryCount()}).
	 */
	static ShareBatch map(List<ConsumerRecord<byte[], byte[]>> records, RecordMapper mapper, int maxRecordBytes) {
		return new ShareBatch(records, MappedBatch.map(records, mapper, maxRecordBytes));
	}

	private int position(ConsumerRecord<byte[], byte[]> record) {
		Integer position = positions.get(record);
		if (position == null) {
			throw new IllegalStateException("the mapped batch holds a record that was not polled");
		}
		return position;
	}

	private void add(RedisWrite write, int record) {
		if (writes.size() == owners.length) {
			owners = Arrays.copyOf(owners, owners.length * 2);
		}
		owners[writes.size()] = record;
		writes.add(write);
	}

	/** Every write of the batch, in poll order: one round trip. */
	List<RedisWrite> writes() {
		return writes;
	}

	/**
	 * One decision per record, in poll order, from the replies of the batch's round trip.
	 * @param deliveryLimit the share group's delivery count limit
	 */
	List<Decision> decide(PipelineResult result, int deliveryLimit) {
		@Nullable Throwable[] transientCause = new Throwable[records.size()];
		@Nullable Throwable[] permanentCause = new Throwable[records.size()];
		for (PipelineResult.Failure failure : result.failures()) {
			int record = owners[failure.index()];
			if (FailureClass.of(failure.cause()) == FailureClass.TRANSIENT) {
				transientCause[record] = failure.cause();
			}
			else if (permanentCause[record] == null) {
				permanentCause[record] = failure.cause();
			}
		}
		boolean[] stale = new boolean[records.size()];
		result.stale().forEach(index -> stale[owners[index]] = true);
		@Nullable DeadLetter[] rejected = new DeadLetter[records.size()];
		mapped.rejected().forEach(letter -> rejected[position(letter.record())] = letter);
		boolean[] hasWrites = new boolean[records.size()];
		mapped.toWrite().forEach(record -> hasWrites[position(record.record())] = true);
		List<Decision> decisions = new ArrayList<>(records.size());
		for (int r = 0; r < records.size(); r++) {
			ConsumerRecord<byte[], byte[]> record = records.get(r);
			DeadLetter deadLetter = rejected[r];
			Throwable retry = transientCause[r];
			Throwable reject = permanentCause[r];
			if (deadLetter != null) {
				decisions.add(Decision.deadLetter(deadLetter));
			}
			else if (retry != null && delivery(record) < deliveryLimit) {
				decisions.add(new Decision(record, RecordOutcome.RETRIED, null));
			}
			else if (retry != null) {
				decisions
					.add(Decision.deadLetter(new DeadLetter(
							record, "Redis did not take its writes on delivery " + delivery(record) + " of "
									+ deliveryLimit + " (the share group's delivery limit): " + retry.getMessage(),
							retry)));
			}
			else if (reject != null) {
				decisions.add(Decision
					.deadLetter(new DeadLetter(record, "Redis rejected a write: " + reject.getMessage(), reject)));
			}
			else if (!hasWrites[r]) {
				decisions.add(new Decision(record, RecordOutcome.SKIPPED, null));
			}
			else {
				decisions.add(new Decision(record, stale[r] ? RecordOutcome.STALE : RecordOutcome.WRITTEN, null));
			}
		}
		return decisions;
	}

	/** The record's delivery count: 1 on its first delivery. */
	static int delivery(ConsumerRecord<?, ?> record) {
		return record.deliveryCount().map(Short::intValue).orElse(1);
	}

	/**
	 * What becomes of one record: {@link RecordOutcome#WRITTEN},
	 * {@link RecordOutcome#STALE} and {@link RecordOutcome#SKIPPED} are accepted,
	 * {@link RecordOutcome#RETRIED} released, {@link RecordOutcome#DEAD_LETTERED}
	 * rejected once its {@code deadLetter} is published.
	 */
	record Decision(ConsumerRecord<byte[], byte[]> record, RecordOutcome outcome, @Nullable DeadLetter deadLetter) {

		static Decision deadLetter(DeadLetter deadLetter) {
			return new Decision(deadLetter.record(), RecordOutcome.DEAD_LETTERED, deadLetter);
		}

	}

}
