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
package io.sawmill.redis.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.sync.RedisCommands;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.TransactionalBatchWriter.FencedException;
import io.sawmill.redis.internal.TransactionalBatchWriter.Transaction;

/**
 * {@code sendTransactions} and {@code read} against a real redis-server: each write's
 * outcome comes from its queue-time reply and its element of {@code EXEC}'s reply.
 */
class TransactionWriterTests {

	@RegisterExtension
	static final StandaloneRedis redis = new StandaloneRedis();

	private static RedisCommands<String, String> reader;

	private String prefix;

	@BeforeAll
	static void loadTestFunction() {
		reader = redis.reader();
		reader.functionLoad("#!lua name=sawmilltest\nredis.register_function('zero', function(keys, args) "
				+ "redis.call('INCR', keys[1]) return 0 end)", true);
	}

	@BeforeEach
	void uniquePrefix() {
		prefix = "sawmill-test:" + UUID.randomUUID() + ":";
	}

	private LettucePipelinedWriter writer(int maxCommandsPerChunk) {
		return redis.openWriter(PipelineConfig.custom()
			.maxCommandsPerChunk(maxCommandsPerChunk)
			.timeout(Duration.ofSeconds(10))
			.build(), List.of());
	}

	private RedisWrite incr(String key) {
		return RedisWrite.command("INCR", utf8(prefix + key));
	}

	private RedisWrite set(String key, String value) {
		return RedisWrite.command("SET", utf8(prefix + key), utf8(value));
	}

	/**
	 * Each list of writes as a transaction fenced by its last write's key, expected to be
	 * missing (0): a watermark set for the first time.
	 */
	private static List<Transaction> fencedByNewWatermarks(List<List<RedisWrite>> transactions) {
		return transactions.stream()
			.map(writes -> new Transaction(writes.get(writes.size() - 1).key(), 0, writes))
			.toList();
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	@Test
	void shouldApplyEveryTransactionAndAcknowledgeEachWrite() {
		PipelineResult result = writer(2000)
			.sendTransactions(fencedByNewWatermarks(
					List.of(List.of(incr("a"), incr("b"), set("wm0", "3")), List.of(incr("a"), set("wm1", "5")))))
			.await();

		assertThat(result.succeeded()).isTrue();
		assertThat(result.commands()).isEqualTo(5);
		assertThat(reader.get(prefix + "a")).isEqualTo("2");
		assertThat(reader.get(prefix + "b")).isEqualTo("1");
		assertThat(reader.mget(prefix + "wm0", prefix + "wm1")).extracting(kv -> kv.getValue())
			.containsExactly("3", "5");
	}

	@Test
	void shouldApplyNothingOfATransactionWithAnErrorAtQueueTimeAndFailEachOfItsWrites() {
		PipelineResult result = writer(2000).sendTransactions(fencedByNewWatermarks(
				List.of(List.of(incr("a"), RedisWrite.command("NOSUCHCOMMAND", utf8(prefix + "x")), set("wm0", "3")),
						List.of(incr("b"), set("wm1", "5")))))
			.await();

		assertThat(result.failures()).extracting(PipelineResult.Failure::index).containsExactly(0, 1, 2);
		assertThat(result.failures().get(1).cause()).hasMessageContaining("unknown command");
		assertThat(result.failures().get(0).cause()).isInstanceOf(RedisCommandExecutionException.class)
			.hasMessageStartingWith("EXECABORT");
		assertThat(result.failures().get(2).cause()).hasMessageStartingWith("EXECABORT");
		assertThat(reader.exists(prefix + "a", prefix + "wm0")).isZero();
		assertThat(reader.get(prefix + "b")).isEqualTo("1");
		assertThat(reader.get(prefix + "wm1")).isEqualTo("5");
	}

	@Test
	void shouldFailOnlyTheWriteThatFailedWhenItsTransactionRan() {
		reader.hset(prefix + "hash", "f", "v");

		PipelineResult result = writer(2000)
			.sendTransactions(
					fencedByNewWatermarks(List.of(List.of(incr("a"), incr("hash"), incr("c"), set("wm0", "4")))))
			.await();

		assertThat(result.failures()).singleElement().satisfies(failure -> {
			assertThat(failure.index()).isEqualTo(1);
			assertThat(failure.cause()).hasMessageStartingWith("WRONGTYPE");
		});
		assertThat(reader.mget(prefix + "a", prefix + "c", prefix + "wm0")).extracting(kv -> kv.getValue())
			.containsExactly("1", "1", "4");
	}

	@Test
	void shouldTellWhichWriteFailedAfterWritesWhoseRepliesAreArrays() {
		reader.hset(prefix + "hash", "f", "v");
		byte[] list = utf8(prefix + "list");

		PipelineResult result = writer(2000)
			.sendTransactions(fencedByNewWatermarks(
					List.of(List.of(RedisWrite.command("RPUSH", list, utf8("a"), utf8("b"), utf8("c")),
							RedisWrite.command("LPOP", list, utf8("2")), incr("hash"), incr("a"), set("wm0", "1")))))
			.await();

		assertThat(result.failures()).extracting(PipelineResult.Failure::index).containsExactly(2);
		assertThat(reader.lrange(prefix + "list", 0, -1)).containsExactly("c");
		assertThat(reader.get(prefix + "a")).isEqualTo("1");
	}

	@Test
	void shouldReportAFunctionThatRepliedZeroInsideATransactionAsStale() {
		PipelineResult result = writer(2000)
			.sendTransactions(fencedByNewWatermarks(
					List.of(List.of(incr("a"), RedisWrite.function("zero", utf8(prefix + "f")), set("wm0", "2")))))
			.await();

		assertThat(result.succeeded()).isTrue();
		assertThat(result.stale()).containsExactly(1);
		assertThat(reader.get(prefix + "f")).isEqualTo("1");
	}

	@Test
	void shouldKeepOutcomesRightWhenTransactionsSpanChunks() {
		List<List<RedisWrite>> transactions = new ArrayList<>();
		for (int t = 0; t < 5; t++) {
			transactions.add(List.of(incr("n"), incr("n"), incr("n"), set("wm" + t, Integer.toString(t))));
		}
		reader.hset(prefix + "hash", "f", "v");
		transactions.add(List.of(incr("n"), incr("hash"), set("wm5", "5")));

		PipelineResult result = writer(3).sendTransactions(fencedByNewWatermarks(transactions)).await();

		assertThat(result.chunks()).isGreaterThan(1);
		assertThat(result.failures()).extracting(PipelineResult.Failure::index).containsExactly(21);
		assertThat(reader.get(prefix + "n")).isEqualTo("16");
		assertThat(reader.get(prefix + "wm5")).isEqualTo("5");
	}

	@Test
	void shouldApplyNothingOfATransactionWhoseFenceHoldsAnotherValueAndFailEachOfItsWritesAsFenced() {
		reader.set(prefix + "wm0", "7");

		PipelineResult result = writer(2000)
			.sendTransactions(List.of(new Transaction(utf8(prefix + "wm0"), 3, List.of(incr("a"), set("wm0", "9"))),
					new Transaction(utf8(prefix + "wm1"), 0, List.of(incr("b"), set("wm1", "5")))))
			.await();

		assertThat(result.failures()).extracting(PipelineResult.Failure::index).containsExactly(0, 1);
		assertThat(result.failures())
			.allSatisfy(failure -> assertThat(failure.cause()).isInstanceOf(FencedException.class)
				.hasMessageContaining(prefix + "wm0 did not hold 3"));
		assertThat(reader.exists(prefix + "a")).isZero();
		assertThat(reader.get(prefix + "wm0")).isEqualTo("7");
		assertThat(reader.get(prefix + "b")).isEqualTo("1");
		assertThat(reader.get(prefix + "wm1")).isEqualTo("5");
	}

	@Test
	void shouldFenceASecondTransactionExpectingTheWatermarkTheFirstOneMoved() {
		PipelineResult result = writer(2000)
			.sendTransactions(List.of(new Transaction(utf8(prefix + "wm0"), 0, List.of(incr("a"), set("wm0", "4"))),
					new Transaction(utf8(prefix + "wm0"), 0, List.of(incr("a"), set("wm0", "4")))))
			.await();

		assertThat(result.failures()).extracting(PipelineResult.Failure::index).containsExactly(2, 3);
		assertThat(result.failures().get(0).cause()).isInstanceOf(FencedException.class);
		assertThat(reader.get(prefix + "a")).isEqualTo("1");
		assertThat(reader.get(prefix + "wm0")).isEqualTo("4");
	}

	@Test
	void shouldApplyATransactionWhoseFenceHoldsTheExpectedWatermark() {
		reader.set(prefix + "wm0", "12");

		PipelineResult result = writer(2000)
			.sendTransactions(List.of(new Transaction(utf8(prefix + "wm0"), 12, List.of(incr("a"), set("wm0", "15")))))
			.await();

		assertThat(result.succeeded()).isTrue();
		assertThat(reader.get(prefix + "a")).isEqualTo("1");
		assertThat(reader.get(prefix + "wm0")).isEqualTo("15");
	}

	@Test
	void shouldReadValuesAfterWhatTheThreadSent() {
		LettucePipelinedWriter writer = writer(2000);
		writer.sendTransactions(fencedByNewWatermarks(List.of(List.of(incr("a"), set("wm0", "7")))));

		List<byte[]> values = writer.read(List.of(utf8(prefix + "wm0"), utf8(prefix + "missing")));

		assertThat(values).hasSize(2);
		assertThat(new String(values.get(0), StandardCharsets.US_ASCII)).isEqualTo("7");
		assertThat(values.get(1)).isNull();
	}

}
