package io.sawmill.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.springframework.kafka.listener.BatchAcknowledgingConsumerAwareMessageListener;
import org.springframework.kafka.support.Acknowledgment;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.metrics.SawmillMetrics;

/**
 * The data path of one polled batch, top to bottom: map every record → write all writes in
 * pipelined round trips, per-record outcomes, transient failures retried → dead-letter what cannot
 * be written → commit the batch's offsets.
 * <p>
 * The commit contract: the batch's offsets are committed ({@link OffsetCommits}) only when every
 * record of the batch is in Redis (acknowledged by Redis), dead-lettered (acknowledged by the
 * dead-letter destination) or skipped (mapped to no writes). Otherwise this method throws and
 * nothing of the batch is committed; {@link RedeliverBatchErrorHandler} seeks back so the same
 * records are polled again. Spring's {@link Acknowledgment} is not used: with AckMode
 * {@code MANUAL_IMMEDIATE} and no acknowledgement, the container itself never commits.
 * <p>
 * Called from listener threads only, one batch per thread at a time; shared by all threads of a
 * container, so it keeps no per-batch state in fields.
 */
final class PipelineBatchListener implements BatchAcknowledgingConsumerAwareMessageListener<byte[], byte[]> {

	private final RecordMapper mapper;
	private final int maxRecordBytes;
	private final PerRecordPipeline pipeline;
	private final DeadLetterPublisher deadLetters;
	private final SawmillMetrics metrics;
	private final CommitOnRebalance commits;

	PipelineBatchListener(RecordMapper mapper, int maxRecordBytes, PerRecordPipeline pipeline,
			DeadLetterPublisher deadLetters, SawmillMetrics metrics, CommitOnRebalance commits) {
		this.mapper = mapper;
		this.maxRecordBytes = maxRecordBytes;
		this.pipeline = pipeline;
		this.deadLetters = deadLetters;
		this.metrics = metrics;
		this.commits = commits;
	}

	@Override
	public void onMessage(List<ConsumerRecord<byte[], byte[]>> records, Acknowledgment acknowledgment,
			Consumer<?, ?> consumer) {
		long polled = System.nanoTime();
		MappedBatch batch = MappedBatch.map(records, mapper, maxRecordBytes);
		List<DeadLetter> rejectedByRedis = pipeline.write(batch.toWrite());
		List<DeadLetter> all = new ArrayList<>(batch.rejected());
		all.addAll(rejectedByRedis);
		deadLetters.publish(all);
		commits.commits().commit(consumer, records);
		metrics.batchCommitted(Duration.ofNanos(System.nanoTime() - polled), records.size());
		Set<ConsumerRecord<byte[], byte[]>> notWritten = Collections.newSetFromMap(new IdentityHashMap<>());
		rejectedByRedis.forEach(deadLetter -> notWritten.add(deadLetter.record()));
		for (MappedRecord written : batch.toWrite()) {
			if (!notWritten.contains(written.record())) {
				batch.count(written.record().topic(), RecordOutcome.WRITTEN);
			}
		}
		for (DeadLetter deadLetter : all) {
			batch.count(deadLetter.record().topic(), deadLetters.outcome());
		}
		batch.report(metrics);
	}
}
