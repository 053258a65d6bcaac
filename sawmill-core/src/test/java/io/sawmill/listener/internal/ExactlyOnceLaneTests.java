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
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyMap;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willAnswer;
import static org.mockito.Mockito.mock;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisCommandTimeoutException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.listener.Delivery;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.TransactionalBatchWriter.Keyspace;
import io.sawmill.redis.internal.TransactionalBatchWriter.Transaction;
import io.sawmill.redis.internal.TransactionalBatchWriter;

/**
 * The lane with {@link Delivery#EXACTLY_ONCE}, against a writer that records what it is
 * asked: no batch is left in flight, and a partition's watermark is read when the thread
 * first sees the partition, after a batch of it failed and after it was revoked, and not
 * otherwise.
 */
class ExactlyOnceLaneTests {

	private static final TopicPartition P0 = new TopicPartition("users", 0);

	private static final int BATCH = 3;

	/** Reads, sends and commits, in order. */
	private final List<String> events = new ArrayList<>();

	private final RecordingWriter writer = new RecordingWriter();

	@SuppressWarnings("unchecked")
	private final Consumer<byte[], byte[]> consumer = mock(Consumer.class);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final ListenerConfig config = ListenerConfig.custom()
		.topics(List.of("users"))
		.groupId("g")
		.batchSize(BATCH)
		.delivery(Delivery.EXACTLY_ONCE)
		.build();

	private final SawmillMetrics metrics = new SawmillMetrics(registry, config.groupId());

	private final ConsumerLane lane = new ConsumerLane(
			record -> List.of(RedisWrite.command("INCR", ("k" + record.offset()).getBytes(StandardCharsets.UTF_8))),
			config, ExactlyOnce.with(new TransactionalPipeline(writer, config, RedisCircuit.disabled("test"), metrics)),
			DeadLetterPublisher.loggingOnly(), metrics, TestListeners.redelivery(metrics));

	@BeforeEach
	void consumer() {
		willAnswer(invocation -> events.add("commit " + offset(invocation.getArgument(0)))).given(consumer)
			.commitSync(anyMap());
		willAnswer(invocation -> events.add("commit async " + offset(invocation.getArgument(0)))).given(consumer)
			.commitAsync(anyMap(), any());
		given(consumer.assignment()).willReturn(Set.of(P0));
		given(consumer.currentLag(P0)).willReturn(OptionalLong.of(100));
		// committed by Sawmill where each test's batch starts: no offset reset
		given(consumer.committed(Set.of(P0))).willReturn(Map.of(P0, new OffsetAndMetadata(0, OffsetCommits.METADATA)));
	}

	@Test
	void shouldFinishEveryBatchInTheCallThatPolledItAndReadAWatermarkOnlyAtFirstSight() {
		lane.poll(batch(0), consumer);
		lane.poll(batch(3), consumer);

		assertThat(events).containsExactly("read sawmill:applied:{g}:users:0", "send k0 k1 k2 SET=3", "commit async 3",
				"send k3 k4 k5 SET=6", "commit async 6");
		assertThat(registry.get("sawmill.batch.in.flight").counter().count()).isZero();
	}

	@Test
	void shouldSkipRecordsBelowTheWatermarkAndCountThemAsDuplicates() {
		writer.watermark = "2";

		lane.poll(batch(0), consumer);

		assertThat(events).containsExactly("read sawmill:applied:{g}:users:0", "send k2 SET=3", "commit async 3");
		assertThat(registry.get("sawmill.records").tag("outcome", "duplicate").counter().count()).isEqualTo(2);
		assertThat(registry.get("sawmill.records").tag("outcome", "written").counter().count()).isEqualTo(1);
	}

	@Test
	void shouldCommitABatchThatCameAgainWholeAfterSettingItsWatermarkAgain() {
		writer.watermark = "3";

		lane.poll(batch(0), consumer);

		assertThat(events).containsExactly("read sawmill:applied:{g}:users:0", "send SET=3", "commit async 3");
		assertThat(registry.get("sawmill.records").tag("outcome", "duplicate").counter().count()).isEqualTo(3);
	}

	@Test
	void shouldReplayAPartitionThatStartsBelowItsWatermarkFromAnOffsetSawmillDidNotCommit() {
		writer.watermark = "2";
		given(consumer.committed(Set.of(P0))).willReturn(Map.of(P0, new OffsetAndMetadata(0)));

		lane.poll(batch(0), consumer);

		assertThat(events).containsExactly("read sawmill:applied:{g}:users:0", "send SET=0", "send k0 k1 k2 SET=3",
				"commit async 3");
		assertThat(registry.get("sawmill.offset.resets").tag("action", "replayed").counter().count()).isEqualTo(1);
	}

	@Test
	void shouldReadTheWatermarkAgainAfterAFailedBatchAndAfterARevoke() {
		writer.failNext = true;
		assertThatExceptionOfType(BatchWriteFailedException.class).isThrownBy(() -> lane.poll(batch(0), consumer));
		lane.poll(batch(0), consumer);
		lane.beforeRevoke(consumer, List.of(P0));
		lane.poll(batch(3), consumer);

		assertThat(events).containsExactly("read sawmill:applied:{g}:users:0", "send k0 k1 k2 SET=3",
				"read sawmill:applied:{g}:users:0", "send k0 k1 k2 SET=3", "commit async 3", "commit 3",
				"read sawmill:applied:{g}:users:0", "send k3 k4 k5 SET=6", "commit async 6");
	}

	private static long offset(Map<TopicPartition, OffsetAndMetadata> offsets) {
		return offsets.get(P0).offset();
	}

	private static List<ConsumerRecord<byte[], byte[]>> batch(long from) {
		return TestListeners.records("users", from, BATCH);
	}

	/**
	 * Records each read and each transaction; fails the next transaction without a reply
	 * when told.
	 */
	private final class RecordingWriter implements TransactionalBatchWriter {

		String watermark;

		boolean failNext;

		@Override
		public List<byte[]> read(List<byte[]> keys) {
			List<byte[]> values = new ArrayList<>();
			for (byte[] key : keys) {
				events.add("read " + new String(key, StandardCharsets.UTF_8));
				values.add(watermark == null ? null : watermark.getBytes(StandardCharsets.US_ASCII));
			}
			return values;
		}

		@Override
		public Keyspace keyspace() {
			return Keyspace.ONE_SERVER;
		}

		@Override
		public Sent sendTransactions(List<Transaction> transactions) {
			List<RedisWrite> writes = new ArrayList<>();
			transactions.forEach(transaction -> writes.addAll(transaction.writes()));
			StringBuilder sent = new StringBuilder("send");
			for (RedisWrite write : writes) {
				RedisWrite.Command command = (RedisWrite.Command) write;
				sent.append(' ')
					.append(command.name().equals("SET")
							? "SET=" + new String(command.args().get(0), StandardCharsets.US_ASCII)
							: new String(command.key(), StandardCharsets.UTF_8));
			}
			events.add(sent.toString());
			List<PipelineResult.Failure> failures = new ArrayList<>();
			if (failNext) {
				failNext = false;
				for (int i = 0; i < writes.size(); i++) {
					failures
						.add(new PipelineResult.Failure(i, writes.get(i), new RedisCommandTimeoutException("timeout")));
				}
			}
			PipelineResult result = new PipelineResult(writes.size(), 1, failures);
			return () -> result;
		}

		@Override
		public PipelineResult write(List<RedisWrite> writes) {
			throw new AssertionError("exactly-once writes in transactions only");
		}

		@Override
		public void ping() {
		}

		@Override
		public void close() {
		}

	}

}
