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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.mapping.MappingUnavailableException;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.metrics.internal.SawmillMetrics;

/**
 * The map step of one batch: which records have writes (in poll order, so per partition
 * in offset order), which are skipped, and which cannot be written at all — rejected by
 * the mapper, or larger than {@code sawmill.max-record-size} — with their reason. Once
 * the batch is committed, {@link #report} counts each record's outcome. A mapper that
 * cannot map a record now ({@link MappingUnavailableException}) fails the whole batch.
 */
final class MappedBatch {

	private static final Logger log = LoggerFactory.getLogger(MappedBatch.class);

	private final List<MappedRecord> toWrite;

	private final List<DeadLetter> rejected = new ArrayList<>(0);

	private final List<ConsumerRecord<byte[], byte[]>> skipped = new ArrayList<>(0);

	private MappedBatch(int records) {
		this.toWrite = new ArrayList<>(records);
	}

	public static MappedBatch map(List<ConsumerRecord<byte[], byte[]>> records, RecordMapper mapper,
			int maxRecordBytes) {
		MappedBatch batch = new MappedBatch(records.size());
		for (ConsumerRecord<byte[], byte[]> record : records) {
			if (record.value() != null && record.value().length > maxRecordBytes) {
				batch.reject(record, "record value of " + record.value().length
						+ " bytes exceeds sawmill.max-record-size (" + maxRecordBytes + " bytes)", null);
				continue;
			}
			List<RedisWrite> writes;
			try {
				writes = mapper.map(record);
			}
			catch (MappingUnavailableException ex) {
				// not the record's fault: the batch is polled again, never dead-lettered
				throw ex;
			}
			catch (RuntimeException ex) {
				batch.reject(record, String.valueOf(ex.getMessage()), ex);
				continue;
			}
			if (writes.isEmpty()) {
				batch.skipped.add(record);
			}
			else {
				batch.toWrite.add(new MappedRecord(record, writes));
			}
		}
		return batch;
	}

	private void reject(ConsumerRecord<byte[], byte[]> record, String reason, @Nullable Throwable cause) {
		log.warn("Record {}-{}@{} cannot be written: {}", record.topic(), record.partition(), record.offset(), reason);
		rejected.add(new DeadLetter(record, reason, cause));
	}

	public List<MappedRecord> toWrite() {
		return toWrite;
	}

	/** Records the mapper rejected or that are too large, with their reasons. */
	public List<DeadLetter> rejected() {
		return rejected;
	}

	/**
	 * Counts the outcome of every record of the committed batch: each record with writes
	 * by {@code outcomes}, and the records skipped or rejected here.
	 * @param deadLettered what a dead letter counts as: dead-lettered or, without a
	 * dead-letter topic, invalid
	 */
	void report(SawmillMetrics metrics, BatchOutcomes outcomes, RecordOutcome deadLettered) {
		Map<String, int[]> counts = new HashMap<>(4);
		for (MappedRecord written : toWrite) {
			RecordOutcome outcome = outcomes.of(written.record());
			count(counts, written.record(), outcome == RecordOutcome.DEAD_LETTERED ? deadLettered : outcome);
		}
		rejected.forEach(deadLetter -> count(counts, deadLetter.record(), deadLettered));
		skipped.forEach(record -> count(counts, record, RecordOutcome.SKIPPED));
		counts.forEach((topic, byOutcome) -> {
			for (RecordOutcome outcome : RecordOutcome.values()) {
				metrics.records(topic, outcome, byOutcome[outcome.ordinal()]);
			}
		});
	}

	private static void count(Map<String, int[]> counts, ConsumerRecord<?, ?> record, RecordOutcome outcome) {
		counts.computeIfAbsent(record.topic(), t -> new int[RecordOutcome.values().length])[outcome.ordinal()]++;
	}

}
