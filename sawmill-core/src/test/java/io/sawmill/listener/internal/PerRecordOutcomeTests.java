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
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.Acknowledgment;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.deadletter.DeadLetter;
import io.sawmill.deadletter.DeadLetterPublishException;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.RedisBatchWriter;

/**
 * Per-record outcomes inside one pipeline: permanent failures are dead-lettered while the
 * rest of the batch is written; transient failures are retried, re-sending only what
 * failed and, per key, keeping offset order; the batch is committed only after Redis or
 * the dead-letter topic took every record.
 */
class PerRecordOutcomeTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final Acknowledgment acknowledgment = mock(Acknowledgment.class);

	/** The consumer the listener commits on; it owns partition t-0. */
	@SuppressWarnings("unchecked")
	private final Consumer<byte[], byte[]> consumer = mock(Consumer.class);

	{
		given(consumer.assignment()).willReturn(Set.of(new TopicPartition("t", 0)));
	}

	private final List<List<String>> sent = new ArrayList<>();

	private final List<DeadLetter> published = new ArrayList<>();

	/**
	 * One SET-like write per record: key = the record's value, so tests choose keys by
	 * value.
	 */
	private final RecordMapper mapper = record -> List.of(RedisWrite.del(record.value()));

	private PipelineBatchListener listener(Function<List<RedisWrite>, List<Throwable>> redis, DeadLetterPublisher dlt) {
		ListenerConfig config = ListenerConfig.custom()
			.topics(List.of("t"))
			.retryMaxAttempts(4)
			.retryBackoff(Duration.ofMillis(1), Duration.ofMillis(1))
			.maxRecordBytes(16)
			.build();
		RedisBatchWriter writer = new RedisBatchWriter() {
			@Override
			public PipelineResult write(List<RedisWrite> writes) {
				sent.add(writes.stream().map(w -> new String(w.key(), StandardCharsets.UTF_8)).toList());
				List<Throwable> outcome = redis.apply(writes);
				List<PipelineResult.Failure> failures = new ArrayList<>();
				for (int i = 0; i < writes.size(); i++) {
					if (outcome.get(i) != null) {
						failures.add(new PipelineResult.Failure(i, writes.get(i), outcome.get(i)));
					}
				}
				return new PipelineResult(writes.size(), 1, failures);
			}

			@Override
			public void ping() {
			}

			@Override
			public void close() {
			}
		};
		SawmillMetrics metrics = new SawmillMetrics(registry, "g");
		return TestListeners.listener(mapper, config,
				new PerRecordPipeline(writer, config, RedisCircuit.disabled("test"), metrics), dlt, metrics);
	}

	private final DeadLetterPublisher recording = published::addAll;

	private static List<ConsumerRecord<byte[], byte[]>> records(String... keys) {
		List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
		for (int i = 0; i < keys.length; i++) {
			records.add(new ConsumerRecord<>("t", 0, i, null, keys[i].getBytes(StandardCharsets.UTF_8)));
		}
		return records;
	}

	private static List<Throwable> failing(List<RedisWrite> writes, String key, Throwable cause) {
		List<Throwable> outcome = new ArrayList<>();
		for (RedisWrite write : writes) {
			outcome.add(new String(write.key(), StandardCharsets.UTF_8).equals(key) ? cause : null);
		}
		return outcome;
	}

	private double count(String outcome) {
		var counter = registry.find("sawmill.records").tag("outcome", outcome).counter();
		return counter == null ? 0 : counter.count();
	}

	@Test
	void shouldDeadLetterAPermanentlyRejectedRecordAndCommitTheRest() {
		RedisCommandExecutionException wrongType = new RedisCommandExecutionException(
				"WRONGTYPE Operation against a key holding the wrong kind of value");
		listener(writes -> failing(writes, "b", wrongType), recording).onMessage(records("a", "b", "c"), acknowledgment,
				consumer);

		assertThat(sent).containsExactly(List.of("a", "b", "c"));
		assertThat(published).singleElement().satisfies(dead -> {
			assertThat(dead.record().offset()).isEqualTo(1);
			assertThat(dead.reason()).contains("WRONGTYPE");
		});
		then(consumer).should().commitSync(anyMap());
		assertThat(count("written")).isEqualTo(2);
		assertThat(count("dead_lettered")).isEqualTo(1);
	}

	@Test
	void shouldRetryOnlyTheTransientlyFailedRecordsAndLaterRecordsOfTheSameKey() {
		int[] call = { 0 };
		listener(writes -> call[0]++ == 0 ? failing(writes, "k", new RedisConnectionException("reset"))
				: failing(writes, "none", null), recording)
			.onMessage(records("k", "x", "y", "k", "z"), acknowledgment, consumer);

		// offset 0 (key k) failed: it is sent again with offset 3, the later write of k,
		// in offset order
		assertThat(sent).containsExactly(List.of("k", "x", "y", "k", "z"), List.of("k", "k"));
		assertThat(published).isEmpty();
		then(consumer).should().commitSync(anyMap());
		assertThat(count("written")).isEqualTo(5);
	}

	@Test
	void shouldNeverDeadLetterBecauseRedisIsDown() {
		PipelineBatchListener listener = listener(
				writes -> failing(writes, "a", new RedisCommandExecutionException("LOADING Redis is loading")),
				recording);

		assertThatExceptionOfType(BatchWriteFailedException.class)
			.isThrownBy(() -> listener.onMessage(records("a", "b"), acknowledgment, consumer));

		assertThat(sent).hasSize(4);
		assertThat(published).isEmpty();
		then(consumer).should(never()).commitSync(anyMap());
		then(consumer).should(never()).commitAsync(anyMap(), any());
	}

	@Test
	void shouldDeadLetterByEliminationARecordWhoseWriteFailsWithTheSameUnlistedReplyInEveryAttemptWhileOthersAreWritten() {
		RedisCommandExecutionException arity = new RedisCommandExecutionException(
				"ERR wrong number of arguments for 'hset' command");
		listener(writes -> failing(writes, "b", arity), recording).onMessage(records("a", "b", "c"), acknowledgment,
				consumer);

		assertThat(sent).containsExactly(List.of("a", "b", "c"), List.of("b"), List.of("b"), List.of("b"));
		assertThat(published).singleElement().satisfies(dead -> {
			assertThat(dead.record().offset()).isEqualTo(1);
			assertThat(dead.reason()).contains("same reply in all 4 attempts").contains("wrong number of arguments");
		});
		then(consumer).should().commitSync(anyMap());
		assertThat(count("written")).isEqualTo(2);
		assertThat(count("dead_lettered")).isEqualTo(1);
	}

	@Test
	void shouldBlameNoRecordWhenEveryWriteFailsWithTheSameUnlistedReply() {
		PipelineBatchListener listener = listener(writes -> {
			List<Throwable> all = new ArrayList<>();
			writes.forEach(write -> all.add(new RedisCommandExecutionException("ERR a module is not ready")));
			return all;
		}, recording);

		assertThatExceptionOfType(BatchWriteFailedException.class)
			.isThrownBy(() -> listener.onMessage(records("a", "b"), acknowledgment, consumer));

		assertThat(published).isEmpty();
		then(consumer).should(never()).commitSync(anyMap());
	}

	@Test
	void shouldBlameNoRecordForAnAclThatDeniesItsKey() {
		PipelineBatchListener listener = listener(writes -> failing(writes, "b",
				new RedisCommandExecutionException("NOPERM No permissions to access a key")), recording);

		assertThatExceptionOfType(BatchWriteFailedException.class)
			.isThrownBy(() -> listener.onMessage(records("a", "b", "c"), acknowledgment, consumer));

		assertThat(published).isEmpty();
		then(consumer).should(never()).commitSync(anyMap());
	}

	@Test
	void shouldBlameNoRecordWhoseReplyChangesBetweenAttempts() {
		int[] call = { 0 };
		PipelineBatchListener listener = listener(
				writes -> failing(writes, "b", new RedisCommandExecutionException("ERR proxy says " + call[0]++)),
				recording);

		assertThatExceptionOfType(BatchWriteFailedException.class)
			.isThrownBy(() -> listener.onMessage(records("a", "b", "c"), acknowledgment, consumer));

		assertThat(published).isEmpty();
	}

	@Test
	void shouldDeadLetterInvalidAndOversizedRecordsWithTheirReasons() {
		RecordMapper strict = record -> {
			if (new String(record.value(), StandardCharsets.UTF_8).startsWith("bad")) {
				throw new io.sawmill.mapping.RecordMappingException("value is not valid JSON");
			}
			return mapper.map(record);
		};
		ListenerConfig config = ListenerConfig.custom().topics(List.of("t")).maxRecordBytes(8).build();
		SawmillMetrics metrics = new SawmillMetrics(registry, "g");
		RedisBatchWriter ok = mock(RedisBatchWriter.class);
		org.mockito.BDDMockito.given(ok.write(org.mockito.ArgumentMatchers.any()))
			.willReturn(new PipelineResult(1, 1, List.of()));
		TestListeners
			.listener(strict, config, new PerRecordPipeline(ok, config, RedisCircuit.disabled("test"), metrics),
					recording, metrics)
			.onMessage(records("good", "bad", "far-too-large"), acknowledgment, consumer);

		assertThat(published).extracting(DeadLetter::reason)
			.containsExactly("value is not valid JSON",
					"record value of 13 bytes exceeds sawmill.max-record-size (8 bytes)");
		then(consumer).should().commitSync(anyMap());
	}

	@Test
	void shouldNotCommitWhenTheDeadLettersCannotBePublished() {
		RedisCommandExecutionException wrongType = new RedisCommandExecutionException("WRONGTYPE");
		DeadLetterPublisher down = deadLetters -> {
			throw new DeadLetterPublishException("broker unreachable", null);
		};
		PipelineBatchListener listener = listener(writes -> failing(writes, "b", wrongType), down);

		assertThatExceptionOfType(DeadLetterPublishException.class)
			.isThrownBy(() -> listener.onMessage(records("a", "b"), acknowledgment, consumer));
		then(consumer).should(never()).commitSync(anyMap());
		then(consumer).should(never()).commitAsync(anyMap(), any());
	}

}
