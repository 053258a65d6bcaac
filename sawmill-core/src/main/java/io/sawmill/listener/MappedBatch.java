package io.sawmill.listener;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.metrics.SawmillMetrics;

/**
 * The map step of one batch: which records have writes (in poll order, so per partition in offset
 * order), which are skipped, and which cannot be written at all — rejected by the mapper, or larger
 * than {@code sawmill.max-record-size} — with their reason. Once the batch is committed,
 * {@link #report} counts each record's outcome.
 */
final class MappedBatch {

	private static final Logger log = LoggerFactory.getLogger(MappedBatch.class);

	private final List<MappedRecord> toWrite;
	private final List<DeadLetter> rejected = new ArrayList<>(0);
	private final List<ConsumerRecord<byte[], byte[]>> skipped = new ArrayList<>(0);

	private MappedBatch(int records) {
		this.toWrite = new ArrayList<>(records);
	}

	static MappedBatch map(List<ConsumerRecord<byte[], byte[]>> records, RecordMapper mapper, int maxRecordBytes) {
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

	private void reject(ConsumerRecord<byte[], byte[]> record, String reason, Throwable cause) {
		log.warn("Record {}-{}@{} cannot be written: {}", record.topic(), record.partition(), record.offset(), reason);
		rejected.add(new DeadLetter(record, reason, cause));
	}

	List<MappedRecord> toWrite() {
		return toWrite;
	}

	/** Records the mapper rejected or that are too large, with their reasons. */
	List<DeadLetter> rejected() {
		return rejected;
	}

	/**
	 * Counts the outcome of every record of the committed batch: written, stale, skipped, or
	 * dead-lettered ({@code deadLettered}: dead-lettered or, without a dead-letter topic, invalid).
	 * @param rejectedByRedis the records Redis permanently rejected
	 * @param stale the records whose version-guarded writes Redis found older than what it holds
	 */
	void report(SawmillMetrics metrics, List<DeadLetter> rejectedByRedis, List<ConsumerRecord<byte[], byte[]>> stale,
			RecordOutcome deadLettered) {
		report(metrics, rejectedByRedis, stale, List.of(), deadLettered);
	}

	/**
	 * As above, with the records not written again because their writes were applied before
	 * ({@code sawmill.delivery=exactly-once}).
	 * @param duplicates records among {@link #toWrite()} whose offset is below their partition's watermark
	 */
	void report(SawmillMetrics metrics, List<DeadLetter> rejectedByRedis, List<ConsumerRecord<byte[], byte[]>> stale,
			List<ConsumerRecord<byte[], byte[]>> duplicates, RecordOutcome deadLettered) {
		Map<String, int[]> counts = new HashMap<>(4);
		Set<ConsumerRecord<byte[], byte[]>> notWritten = Collections.newSetFromMap(new IdentityHashMap<>());
		for (DeadLetter deadLetter : rejectedByRedis) {
			notWritten.add(deadLetter.record());
			count(counts, deadLetter.record(), deadLettered);
		}
		for (ConsumerRecord<byte[], byte[]> record : stale) {
			notWritten.add(record);
			count(counts, record, RecordOutcome.STALE);
		}
		for (ConsumerRecord<byte[], byte[]> record : duplicates) {
			notWritten.add(record);
			count(counts, record, RecordOutcome.DUPLICATE);
		}
		for (MappedRecord written : toWrite) {
			if (!notWritten.contains(written.record())) {
				count(counts, written.record(), RecordOutcome.WRITTEN);
			}
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
