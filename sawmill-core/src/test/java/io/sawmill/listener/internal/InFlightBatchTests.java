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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyMap;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.BDDMockito.willAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.kafka.support.Acknowledgment;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.RedisBatchWriter;

/**
 * One batch in flight: a full batch whose consumer has more to read is sent and left
 * uncommitted while the next batch is mapped and sent; only then is it awaited, retried
 * and committed. These tests pin the order of sends, awaits and commits, and what happens
 * to both batches when the one in flight fails. (The whole path on real servers:
 * {@code EndToEndIT}, {@code InFlightBatchIT} and the fault scenarios.)
 */
class InFlightBatchTests {

	private static final TopicPartition P0 = new TopicPartition("users", 0);

	private static final int BATCH = 3;

	private static final int MAX_ATTEMPTS = 3;

	/** Sends, awaits and commits, in order. */
	private final List<String> events = new ArrayList<>();

	private final SplitWriter writer = new SplitWriter(events);

	private final Acknowledgment acknowledgment = mock(Acknowledgment.class);

	@SuppressWarnings("unchecked")
	private final Consumer<byte[], byte[]> consumer = mock(Consumer.class);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final ListenerConfig config = ListenerConfig.custom()
		.topics(List.of("users"))
		.batchSize(BATCH)
		.retryMaxAttempts(MAX_ATTEMPTS)
		.retryBackoff(Duration.ofMillis(1), Duration.ofMillis(1))
		.build();

	private final SawmillMetrics metrics = new SawmillMetrics(registry, config.groupId());

	private final PipelineBatchListener listener = TestListeners.listener(
			record -> List.of(RedisWrite.del(("k" + record.offset()).getBytes(StandardCharsets.UTF_8))), config,
			new PerRecordPipeline(writer, config, RedisCircuit.disabled("test"), metrics),
			DeadLetterPublisher.loggingOnly(), metrics);

	@BeforeEach
	void consumer() {
		willAnswer(invocation -> events.add("commit " + offset(invocation.getArgument(0)))).given(consumer)
			.commitSync(anyMap());
		willAnswer(invocation -> events.add("commit async " + offset(invocation.getArgument(0)))).given(consumer)
			.commitAsync(anyMap(), any());
		given(consumer.assignment()).willReturn(Set.of(P0));
		behind(true);
	}

	/** Whether the consumer has records after its position, as of its last fetch. */
	private void behind(boolean behind) {
		given(consumer.currentLag(P0)).willReturn(OptionalLong.of(behind ? 100 : 0));
	}

	private static long offset(Map<TopicPartition, OffsetAndMetadata> offsets) {
		return offsets.get(P0).offset();
	}

	/** Records {@code from} … {@code from + BATCH - 1}, one DEL of "k" + offset each. */
	private static List<ConsumerRecord<byte[], byte[]>> batch(long from) {
		return TestListeners.records("users", from, BATCH);
	}

	private double keptInFlight() {
		return registry.get("sawmill.batch.in.flight").counter().count();
	}

	@Test
	void shouldSendTheNextBatchBeforeAwaitingAndCommittingTheOneInFlight() {
		listener.onMessage(batch(0), acknowledgment, consumer);

		assertThat(events).containsExactly("send k0-k2");

		behind(false);
		listener.onMessage(batch(3), acknowledgment, consumer);

		assertThat(events).containsExactly("send k0-k2", "send k3-k5", "await k0-k2", "commit async 3", "await k3-k5",
				"commit async 6");
		assertThat(keptInFlight()).isEqualTo(1);
		assertThat(registry.get("sawmill.batch.duration").timer().count()).isEqualTo(2);
	}

	@Test
	void shouldSendABatchOfNonIdempotentWritesOnlyOnceTheBatchInFlightIsFinished() {
		// a retry of the batch in flight would send a batch sent after it again
		PipelineBatchListener incrementing = TestListeners.listener(
				record -> List.of(record.offset() < BATCH
						? RedisWrite.del(("k" + record.offset()).getBytes(StandardCharsets.UTF_8))
						: RedisWrite.command("INCR", ("k" + record.offset()).getBytes(StandardCharsets.UTF_8))),
				config, new PerRecordPipeline(writer, config, RedisCircuit.disabled("test"), metrics),
				DeadLetterPublisher.loggingOnly(), metrics);

		incrementing.onMessage(batch(0), acknowledgment, consumer);
		behind(false);
		incrementing.onMessage(batch(3), acknowledgment, consumer);

		assertThat(events).containsExactly("send k0-k2", "await k0-k2", "commit async 3", "send k3-k5", "await k3-k5",
				"commit async 6");
	}

	@Test
	void shouldFinishABatchInFlightThatHasNoWritesWithoutSendingTheNextBatchAgain() {
		// a batch whose records are all skipped or dead-lettered at map time has no round
		// trip to await
		PipelineBatchListener skippingFirst = TestListeners.listener(
				record -> record.offset() < BATCH ? List.of()
						: List.of(RedisWrite.del(("k" + record.offset()).getBytes(StandardCharsets.UTF_8))),
				config, new PerRecordPipeline(writer, config, RedisCircuit.disabled("test"), metrics),
				DeadLetterPublisher.loggingOnly(), metrics);

		skippingFirst.onMessage(batch(0), acknowledgment, consumer);
		behind(false);
		skippingFirst.onMessage(batch(3), acknowledgment, consumer);

		assertThat(events).containsExactly("send k3-k5", "commit async 3", "await k3-k5", "commit async 6");
	}

	@Test
	void shouldTimeTheRoundTripOfABatchInFlightToItsLastReplyNotToTheCallThatAwaitsIt() {
		// a round trip no listener call could take here, so the timer can only have it
		// from the writer
		writer.roundTrip(Duration.ofMinutes(1));

		listener.onMessage(batch(0), acknowledgment, consumer);
		behind(false);
		listener.onMessage(batch(3), acknowledgment, consumer);

		Timer roundTrips = registry.get("sawmill.redis.pipeline.duration").timer();
		assertThat(roundTrips.count()).isEqualTo(2);
		assertThat(roundTrips.max(TimeUnit.SECONDS)).isBetween(60.0, 70.0);
		assertThat(roundTrips.totalTime(TimeUnit.SECONDS)).isBetween(120.0, 140.0);
	}

	@Test
	void shouldFinishAtOnceABatchThatIsNotFullOrWhoseConsumerHasNothingMoreToRead() {
		listener.onMessage(batch(0).subList(0, 2), acknowledgment, consumer);
		behind(false);
		listener.onMessage(batch(2), acknowledgment, consumer);

		assertThat(events).containsExactly("send k0-k1", "await k0-k1", "commit 2", "send k2-k4", "await k2-k4",
				"commit async 5");
		assertThat(keptInFlight()).isZero();
	}

	@Test
	void shouldFinishAtOnceWhileThePartitionsArePaused() {
		given(consumer.paused()).willReturn(Set.of(P0));

		listener.onMessage(batch(0), acknowledgment, consumer);

		assertThat(events).containsExactly("send k0-k2", "await k0-k2", "commit async 3");
	}

	@Test
	void shouldSendTheNextBatchAgainAfterTheBatchInFlightWasRetried() {
		writer.failKey("k2", 1);
		listener.onMessage(batch(0), acknowledgment, consumer);

		listener.onMessage(batch(3), acknowledgment, consumer);

		// k3-k5 went out before k2's retry: it no longer counts and is sent again after
		// it, so Redis ends with the writes in offset order
		assertThat(events).containsExactly("send k0-k2", "send k3-k5", "await k0-k2 (k2 failed)", "await k3-k5",
				"send k2", "await k2", "commit async 3", "send k3-k5");
		assertThat(writer.applied).containsExactly("k0", "k1", "k3", "k4", "k5", "k2", "k3", "k4", "k5");

		// the batch sent again is left in flight even though nothing more is waiting, so
		// this call spent one batch's retry budget, not two; the idle check finishes it
		behind(false);
		listener.onIdleContainer(Map.of(P0, 6L), null);
		assertThat(events).endsWith("send k3-k5", "await k3-k5", "commit async 6");
	}

	@Test
	void shouldCommitNeitherBatchAndPollBothAgainWhenTheBatchInFlightCannotBeWritten() {
		writer.failKey("k1", Integer.MAX_VALUE);
		listener.onMessage(batch(0), acknowledgment, consumer);

		InFlightBatchFailedException failure = catchThrowableOfType(InFlightBatchFailedException.class,
				() -> listener.onMessage(batch(3), acknowledgment, consumer));

		assertThat(failure).hasMessageContaining("batch of 3 records in flight was not committed")
			.hasCauseInstanceOf(BatchWriteFailedException.class);
		assertThat(failure.inFlight()).extracting(ConsumerRecord::offset).containsExactly(0L, 1L, 2L);
		assertThat(events).noneMatch(event -> event.startsWith("commit"));

		// the container's error handler is given the current poll; it seeks back to the
		// batch in flight
		new RedeliverBatchErrorHandler(TestListeners.redelivery(metrics)).handleBatch(
				new ListenerExecutionFailedException("Listener failed", failure),
				new ConsumerRecords<>(Map.of(P0, batch(3)), Map.of()), consumer, null, () -> {
				});
		then(consumer).should().seek(P0, 0L);
		assertThat(registry.get("sawmill.records").tag("outcome", "retried").counter().count()).isEqualTo(2 * BATCH);
	}

	@Test
	void shouldFinishAndCommitTheBatchInFlightBeforeItsPartitionsAreRevoked() {
		listener.onMessage(batch(0), acknowledgment, consumer);

		listener.onPartitionsRevokedBeforeCommit(consumer, List.of(P0));

		assertThat(events).containsExactly("send k0-k2", "await k0-k2", "commit async 3", "commit 3");
	}

	@Test
	void shouldSeekBackToTheBatchInFlightWhenItCannotBeWrittenBeforeARevoke() {
		writer.failKey("k0", Integer.MAX_VALUE);
		listener.onMessage(batch(0), acknowledgment, consumer);

		listener.onPartitionsRevokedBeforeCommit(consumer, List.of(P0));

		then(consumer).should().seek(P0, 0L);
		then(consumer).should(never()).commitAsync(anyMap(), any());
		then(consumer).should(never()).commitSync(anyMap());
		assertThat(registry.get("sawmill.records").tag("outcome", "retried").counter().count()).isEqualTo(BATCH);
	}

	@Test
	void shouldFinishTheBatchInFlightWhenTheContainerIsIdle() {
		listener.onMessage(batch(0), acknowledgment, consumer);

		listener.onIdleContainer(Map.of(P0, 3L), null);

		assertThat(events).containsExactly("send k0-k2", "await k0-k2", "commit async 3");
		listener.onIdleContainer(Map.of(P0, 3L), null);
		assertThat(events).hasSize(3);
	}

	/**
	 * A writer whose round trip is split: "send" when the commands go out (and, for the
	 * key order, are applied), "await" when the listener reads the replies. Can fail one
	 * key's writes.
	 */
	static final class SplitWriter implements RedisBatchWriter {

		final List<String> applied = new ArrayList<>();

		private final List<String> events;

		private String failingKey;

		private int failuresLeft;

		private Duration roundTrip = Duration.ZERO;

		SplitWriter(List<String> events) {
			this.events = events;
		}

		/** When each batch's last reply "arrives", counted from its send. */
		void roundTrip(Duration roundTrip) {
			this.roundTrip = roundTrip;
		}

		void failKey(String key, int attempts) {
			this.failingKey = key;
			this.failuresLeft = attempts;
		}

		@Override
		public PipelineResult write(List<RedisWrite> writes) {
			return send(writes).await();
		}

		@Override
		public Sent send(List<RedisWrite> writes) {
			List<String> keys = writes.stream().map(write -> new String(write.key(), StandardCharsets.UTF_8)).toList();
			String name = keys.size() == 1 ? keys.get(0) : keys.get(0) + "-" + keys.get(keys.size() - 1);
			events.add("send " + name);
			List<PipelineResult.Failure> failures = new ArrayList<>();
			for (int i = 0; i < writes.size(); i++) {
				if (keys.get(i).equals(failingKey) && failuresLeft > 0) {
					failuresLeft--;
					failures
						.add(new PipelineResult.Failure(i, writes.get(i), new IllegalStateException("Redis is down")));
				}
				else {
					applied.add(keys.get(i));
				}
			}
			long lastReply = System.nanoTime() + roundTrip.toNanos();
			return new Sent() {
				@Override
				public PipelineResult await() {
					events.add("await " + name + (failures.isEmpty() ? "" : " (" + failingKey + " failed)"));
					return new PipelineResult(writes.size(), 1, failures);
				}

				@Override
				public long lastReplyNanos() {
					return lastReply;
				}
			};
		}

		@Override
		public void ping() {
		}

		@Override
		public void close() {
		}

	}

}
