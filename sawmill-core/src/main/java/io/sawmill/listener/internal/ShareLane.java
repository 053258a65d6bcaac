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
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.listener.internal.ShareBatch.Decision;
import io.sawmill.mapping.MappingUnavailableException;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.metrics.RecordOutcome;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.RedisBatchWriter;

/**
 * The data path of one share-consumer thread: poll → map → write (one pipelined round
 * trip) → dead-letter → acknowledge → count. Each record is acknowledged only after Redis
 * acknowledged its writes, or after its dead letter was published ({@link ShareBatch});
 * the acknowledgements travel to the broker with the next poll, or when the consumer
 * closes.
 * <p>
 * A round trip that outlives the records' acquisition lock
 * ({@code share.record.lock.duration.ms}, 30 s by default) does not lose them: the broker
 * gives them to another consumer, which writes them again (harmless, since share mode
 * accepts only writes whose result does not depend on order or repetition), and the late
 * acknowledgements are refused and counted
 * ({@code sawmill.share.acknowledgement.failures}).
 * <p>
 * Owned by its thread: the share consumer is not thread-safe, and only {@link #wakeUp()}
 * may be called from another thread.
 */
final class ShareLane implements Runnable {

	private static final Logger log = LoggerFactory.getLogger(ShareLane.class);

	private static final Duration POLL_TIMEOUT = Duration.ofSeconds(1);

	private final ShareConsumer<byte[], byte[]> consumer;

	private final ShareConfig config;

	private final RecordMapper mapper;

	private final RedisBatchWriter writer;

	private final DeadLetterPublisher deadLetters;

	private final SawmillMetrics metrics;

	private final ShareMetrics shareMetrics;

	private final CountDownLatch stopping;

	private int consecutiveReleases;

	ShareLane(ShareConsumer<byte[], byte[]> consumer, ShareConfig config, RecordMapper mapper, RedisBatchWriter writer,
			DeadLetterPublisher deadLetters, SawmillMetrics metrics, ShareMetrics shareMetrics,
			CountDownLatch stopping) {
		this.consumer = consumer;
		this.config = config;
		this.mapper = mapper;
		this.writer = writer;
		this.deadLetters = deadLetters;
		this.metrics = metrics;
		this.shareMetrics = shareMetrics;
		this.stopping = stopping;
	}

	@Override
	public void run() {
		try {
			consumer.setAcknowledgementCommitCallback((offsets, exception) -> {
				if (exception != null) {
					int records = offsets.values().stream().mapToInt(Set::size).sum();
					shareMetrics.acknowledgementsFailed(records);
					log.warn("The broker refused the acknowledgement of {} record(s), which it delivers again: {}",
							records, exception.toString());
				}
			});
			consumer.subscribe(config.topics());
			while (stopping.getCount() > 0) {
				List<ConsumerRecord<byte[], byte[]>> records = poll();
				if (!records.isEmpty() && !handle(records)) {
					backOff();
				}
			}
		}
		catch (WakeupException stopped) {
			// stop() woke the poll: close below sends the acknowledgements made so far
		}
		catch (RuntimeException ex) {
			log.error("Share consumer thread {} stopped", Thread.currentThread().getName(), ex);
		}
		finally {
			consumer.close(config.shutdownTimeout());
		}
	}

	/** Breaks a poll in progress; called by another thread to stop this one. */
	void wakeUp() {
		consumer.wakeup();
	}

	private List<ConsumerRecord<byte[], byte[]>> poll() {
		List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
		consumer.poll(POLL_TIMEOUT).forEach(records::add);
		records.forEach(record -> shareMetrics.acquired(ShareBatch.delivery(record)));
		return records;
	}

	/**
	 * Writes and acknowledges one poll's records.
	 * @return false when records were released, so the thread backs off before polling
	 * again
	 */
	private boolean handle(List<ConsumerRecord<byte[], byte[]>> records) {
		long start = System.nanoTime();
		ShareBatch batch;
		try {
			batch = ShareBatch.map(records, mapper, config.maxRecordBytes());
		}
		catch (MappingUnavailableException ex) {
			// not the records' fault (e.g. a schema registry that does not answer): they
			// come back, never dead-lettered for it
			log.warn("The mapping is unavailable, the poll's {} record(s) are released: {}", records.size(),
					ex.getMessage());
			releaseAll(records);
			return false;
		}
		PipelineResult result = writer.write(batch.writes());
		metrics.pipelineCompleted(Duration.ofNanos(System.nanoTime() - start), batch.writes().size());
		List<Decision> decisions = batch.decide(result, config.deliveryLimit());
		boolean deadLettered = publishDeadLetters(decisions);
		boolean released = false;
		for (Decision decision : decisions) {
			AcknowledgeType type = acknowledgement(decision.outcome(), deadLettered);
			consumer.acknowledge(decision.record(), type);
			shareMetrics.acknowledged(type);
			released |= type == AcknowledgeType.RELEASE;
		}
		count(decisions, deadLettered);
		metrics.batchCommitted(Duration.ofNanos(System.nanoTime() - start), records.size());
		consecutiveReleases = released ? consecutiveReleases + 1 : 0;
		return !released;
	}

	private void releaseAll(List<ConsumerRecord<byte[], byte[]>> records) {
		for (ConsumerRecord<byte[], byte[]> record : records) {
			consumer.acknowledge(record, AcknowledgeType.RELEASE);
			shareMetrics.acknowledged(AcknowledgeType.RELEASE);
			metrics.records(record.topic(), RecordOutcome.RETRIED, 1);
		}
		consecutiveReleases++;
	}

	/**
	 * Publishes the batch's dead letters (an empty list too, so the dead-letter brake can
	 * hold the batch back).
	 * @return whether they were published; when not, the whole batch is released
	 */
	private boolean publishDeadLetters(List<Decision> decisions) {
		List<DeadLetter> letters = new ArrayList<>(0);
		for (Decision decision : decisions) {
			if (decision.deadLetter() != null) {
				letters.add(decision.deadLetter());
			}
		}
		try {
			deadLetters.publish(letters);
			return true;
		}
		catch (RuntimeException ex) {
			log.warn("{} dead letter(s) not published, the batch's {} record(s) are released: {}", letters.size(),
					decisions.size(), ex.toString());
			return false;
		}
	}

	private static AcknowledgeType acknowledgement(RecordOutcome outcome, boolean deadLettersPublished) {
		if (!deadLettersPublished || outcome == RecordOutcome.RETRIED) {
			return AcknowledgeType.RELEASE;
		}
		return outcome == RecordOutcome.DEAD_LETTERED ? AcknowledgeType.REJECT : AcknowledgeType.ACCEPT;
	}

	private void count(List<Decision> decisions, boolean deadLettersPublished) {
		Map<String, Map<RecordOutcome, Integer>> counts = new HashMap<>(2);
		for (Decision decision : decisions) {
			RecordOutcome outcome = !deadLettersPublished ? RecordOutcome.RETRIED
					: decision.outcome() == RecordOutcome.DEAD_LETTERED ? deadLetters.outcome() : decision.outcome();
			counts.computeIfAbsent(decision.record().topic(), topic -> new EnumMap<>(RecordOutcome.class))
				.merge(outcome, 1, Integer::sum);
		}
		counts.forEach((topic, byOutcome) -> byOutcome.forEach((outcome, n) -> metrics.records(topic, outcome, n)));
	}

	/**
	 * Waits before the next poll after a round trip that released records, doubling with
	 * each such round trip in a row up to the maximum, so that a Redis outage is not
	 * polled in a loop; ends early when the thread is stopped.
	 */
	private void backOff() {
		long initial = config.initialBackoff().toMillis();
		long wait = Math.min(config.maxBackoff().toMillis(),
				initial << Math.min(Math.max(consecutiveReleases - 1, 0), 20));
		try {
			stopping.await(wait, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			stopping.countDown();
		}
	}

}
