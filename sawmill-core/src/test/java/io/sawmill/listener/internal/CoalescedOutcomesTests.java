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

import static io.sawmill.listener.internal.CoalescerTests.hset;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.deadletter.DeadLetter;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.RedisBatchWriter;

/**
 * Outcomes stay per record when writes are coalesced: a failed command fails every record
 * folded into it, a transient failure retries them (and the later records of their keys,
 * planned again), a permanent one dead-letters each of them.
 */
class CoalescedOutcomesTests {

	private static final RedisCommandExecutionException WRONGTYPE = new RedisCommandExecutionException(
			"WRONGTYPE Operation against a key holding the wrong kind of value");

	private final List<MappedRecord> records = new ArrayList<>();

	@Test
	void shouldDeadLetterEveryRecordFoldedIntoACommandRedisRejected() {
		record(hset("k", "a", "1"));
		record(hset("other", "a", "1"));
		record(hset("k", "a", "2"));
		WritePlan plan = Coalescer.plan(records);

		Outcomes outcomes = Outcomes.of(plan, failing(plan, 0, WRONGTYPE));

		assertThat(outcomes.retry()).isEmpty();
		assertThat(outcomes.permanent()).extracting(dead -> dead.record().offset()).containsExactly(0L, 2L);
		assertThat(outcomes.permanent()).allSatisfy(dead -> assertThat(dead.reason()).contains("WRONGTYPE"));
	}

	@Test
	void shouldRetryEveryRecordFoldedIntoATransientlyFailedCommandAndTheLaterRecordsOfItsKeys() {
		record(hset("a", "f", "1"));
		record(hset("b", "f", "1"));
		record(hset("a", "f", "2"), hset("c", "f", "2"));
		record(hset("c", "f", "3"));
		record(hset("d", "f", "4"));
		WritePlan plan = Coalescer.plan(records);

		Outcomes outcomes = Outcomes.of(plan, failing(plan, 0, new RedisConnectionException("reset")));

		// HSET a carries offsets 0 and 2; offset 3 writes c after offset 2 did
		assertThat(outcomes.retry()).extracting(record -> record.record().offset()).containsExactly(0L, 2L, 3L);
		assertThat(outcomes.permanent()).isEmpty();
	}

	@Test
	void shouldPlanTheRetriedRecordsAgainAndCountTheWritesNotSent() {
		record(hset("a", "f", "1"));
		record(hset("b", "f", "1"));
		record(hset("a", "f", "2"));
		record(hset("a", "f", "3"));
		List<List<String>> sent = new ArrayList<>();
		int[] calls = { 0 };
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		PerRecordPipeline pipeline = pipeline(registry, writes -> {
			sent.add(writes.stream().map(RedisWrite::toString).toList());
			// the first round trip loses the reply of its second command, HSET b
			return calls[0]++ == 0
					? List.of(new PipelineResult.Failure(1, writes.get(1), new RedisConnectionException("reset")))
					: List.of();
		});

		List<DeadLetter> deadLetters = pipeline.finish(pipeline.send(records)).deadLetters();

		assertThat(deadLetters).isEmpty();
		assertThat(sent).containsExactly(List.of("HSET a (1 fields)", "HSET b (1 fields)"),
				List.of("HSET b (1 fields)"));
		assertThat(registry.get("sawmill.writes.coalesced").counter().count()).isEqualTo(2);
	}

	private PerRecordPipeline pipeline(SimpleMeterRegistry registry,
			Function<List<RedisWrite>, List<PipelineResult.Failure>> redis) {
		ListenerConfig config = ListenerConfig.custom()
			.topics(List.of("t"))
			.retryBackoff(Duration.ofMillis(1), Duration.ofMillis(1))
			.coalesceWrites(true)
			.build();
		RedisBatchWriter writer = new RedisBatchWriter() {
			@Override
			public PipelineResult write(List<RedisWrite> writes) {
				return new PipelineResult(writes.size(), 1, redis.apply(writes));
			}

			@Override
			public void ping() {
			}

			@Override
			public void close() {
			}
		};
		return new PerRecordPipeline(writer, config, RedisCircuit.disabled("test"), new SawmillMetrics(registry, "g"));
	}

	private void record(RedisWrite... writes) {
		records.add(new MappedRecord(new ConsumerRecord<>("t", 0, records.size(), null, null), List.of(writes)));
	}

	private static PipelineResult failing(WritePlan plan, int index, Throwable cause) {
		return new PipelineResult(plan.writes().size(), 1,
				List.of(new PipelineResult.Failure(index, plan.writes().get(index), cause)));
	}

}
