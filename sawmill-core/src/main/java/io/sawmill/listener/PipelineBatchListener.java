package io.sawmill.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.BatchAcknowledgingMessageListener;
import org.springframework.kafka.support.Acknowledgment;

import io.github.resilience4j.retry.Retry;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.metrics.SawmillMetrics;
import io.sawmill.redis.PipelineResult;
import io.sawmill.redis.RedisBatchWriter;

/**
 * The data path of one polled batch, top to bottom: map every record → write all writes in one
 * pipelined round trip → acknowledge, which commits the batch's offsets.
 * <p>
 * The commit contract: {@link Acknowledgment#acknowledge()} is called only after Redis acknowledged
 * every command of the batch. When it does not within the retry budget, this method throws and
 * nothing of the batch is committed; {@link RedeliverBatchErrorHandler} seeks back so the same
 * records are polled again. Records that map to no writes, and records the mapper rejects, are
 * committed with the batch.
 * <p>
 * Called from listener threads only, one batch per thread at a time; shared by all threads of a
 * container, so it keeps no per-batch state in fields.
 */
final class PipelineBatchListener implements BatchAcknowledgingMessageListener<byte[], byte[]> {

	private static final Logger log = LoggerFactory.getLogger(PipelineBatchListener.class);

	private final RecordMapper mapper;
	private final RedisBatchWriter writer;
	private final Retry retry;
	private final SawmillMetrics metrics;

	PipelineBatchListener(RecordMapper mapper, RedisBatchWriter writer, Retry retry, SawmillMetrics metrics) {
		this.mapper = mapper;
		this.writer = writer;
		this.retry = retry;
		this.metrics = metrics;
	}

	@Override
	public void onMessage(List<ConsumerRecord<byte[], byte[]>> records, Acknowledgment acknowledgment) {
		long polled = System.nanoTime();
		MappedBatch batch = map(records);
		write(batch.writes());
		acknowledgment.acknowledge();
		metrics.batchCommitted(Duration.ofNanos(System.nanoTime() - polled), records.size());
		batch.countOutcomes(metrics);
	}

	private MappedBatch map(List<ConsumerRecord<byte[], byte[]>> records) {
		MappedBatch batch = new MappedBatch(records.size());
		for (ConsumerRecord<byte[], byte[]> record : records) {
			List<RedisWrite> writes;
			try {
				writes = mapper.map(record);
			}
			catch (RuntimeException ex) {
				log.warn("Invalid record {}-{}@{} not written: {}", record.topic(), record.partition(), record.offset(),
						ex.getMessage());
				batch.count(record.topic(), RecordOutcome.INVALID);
				continue;
			}
			batch.writes().addAll(writes);
			batch.count(record.topic(), writes.isEmpty() ? RecordOutcome.SKIPPED : RecordOutcome.WRITTEN);
		}
		return batch;
	}

	private void write(List<RedisWrite> writes) {
		if (writes.isEmpty()) {
			return;
		}
		int[] attempts = { 0 };
		PipelineResult result = retry.executeSupplier(() -> {
			attempts[0]++;
			long started = System.nanoTime();
			PipelineResult attempt = writer.write(writes);
			metrics.pipelineCompleted(Duration.ofNanos(System.nanoTime() - started), attempt.commands());
			if (!attempt.succeeded()) {
				log.warn("Redis rejected {} of {} commands (attempt {}): {}", attempt.failures().size(),
						attempt.commands(), attempts[0], attempt.failures().get(0).cause().toString());
			}
			return attempt;
		});
		if (!result.succeeded()) {
			throw new BatchWriteFailedException(attempts[0], result);
		}
	}

	/** The writes of one batch and the outcome counts to report once it is committed. */
	private record MappedBatch(List<RedisWrite> writes, Map<String, int[]> counts) {

		MappedBatch(int records) {
			this(new ArrayList<>(records * 2), new HashMap<>(4));
		}

		void count(String topic, RecordOutcome outcome) {
			counts.computeIfAbsent(topic, t -> new int[RecordOutcome.values().length])[outcome.ordinal()]++;
		}

		void countOutcomes(SawmillMetrics metrics) {
			counts.forEach((topic, byOutcome) -> {
				for (RecordOutcome outcome : RecordOutcome.values()) {
					metrics.records(topic, outcome, byOutcome[outcome.ordinal()]);
				}
			});
		}
	}
}
