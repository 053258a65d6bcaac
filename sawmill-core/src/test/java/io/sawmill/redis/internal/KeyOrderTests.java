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
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisCommandExecutionException;
import io.sawmill.mapping.RedisWrite;

/**
 * {@link KeyOrder} without a server: replies are delivered by hand, in the order a
 * cluster's masters would have applied the writes. The reordering itself, against a real
 * cluster, is in {@code LettucePipelinedWriterReshardTests}.
 */
class KeyOrderTests {

	private final KeyOrder order = new KeyOrder();

	private static RedisWrite hset(String key, String value) {
		return RedisWrite.hset(key, Map.of("v", value));
	}

	private static RedisWrite expire(String key) {
		return RedisWrite.expire(key.getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(60));
	}

	@Test
	void shouldReportNothingWhenEveryKeysWritesAreAppliedInOrder() {
		List<RedisWrite> writes = List.of(hset("a", "1"), expire("a"), hset("b", "1"), hset("a", "2"), expire("a"));
		BatchReplies arrivals = new BatchReplies(writes.size());
		KeyOrder.Batch batch = order.batch(writes.size(), arrivals);
		List<BiConsumer<Object, Throwable>> replies = track(batch, writes);

		// another key's write may be applied in any order
		replies.get(2).accept("OK", null);
		replies.get(0).accept("OK", null);
		replies.get(1).accept("OK", null);
		replies.get(3).accept("OK", null);
		replies.get(4).accept("OK", null);

		assertThat(batch.completed(writes, List.of())).isEmpty();
	}

	@Test
	void shouldReportAWriteAppliedAfterALaterWriteToItsKeyAsATransientFailureInIndexOrder() {
		List<RedisWrite> writes = List.of(hset("a", "1"), expire("a"), hset("b", "1"), hset("a", "2"));
		BatchReplies arrivals = new BatchReplies(writes.size());
		KeyOrder.Batch batch = order.batch(writes.size(), arrivals);
		List<BiConsumer<Object, Throwable>> replies = track(batch, writes);
		PipelineResult.Failure wrongType = new PipelineResult.Failure(2, writes.get(2),
				new RedisCommandExecutionException(
						"WRONGTYPE Operation against a key holding the wrong kind of value"));

		// the EXPIRE and the second HSET overtook the first HSET, redirected on its way
		replies.get(1).accept("OK", null);
		replies.get(3).accept("OK", null);
		replies.get(2).accept(null, wrongType.cause());
		replies.get(0).accept("OK", null);

		assertThat(batch.completed(writes, List.of(wrongType))).satisfiesExactly(first -> {
			assertThat(first.index()).isZero();
			assertThat(first.cause()).isInstanceOf(KeyOrder.Overtaken.class);
			assertThat(FailureClass.of(first.cause())).isEqualTo(FailureClass.TRANSIENT);
		}, second -> assertThat(second).isSameAs(wrongType));
	}

	@Test
	void shouldReportAWriteOvertakenByTheNextBatchSentBeforeItWasAwaited() {
		List<RedisWrite> first = List.of(hset("a", "1"), expire("a"));
		List<RedisWrite> second = List.of(hset("a", "2"), expire("a"));
		BatchReplies firstArrivals = new BatchReplies(2);
		BatchReplies secondArrivals = new BatchReplies(2);
		KeyOrder.Batch firstBatch = order.batch(2, firstArrivals);
		List<BiConsumer<Object, Throwable>> firstReplies = track(firstBatch, first);
		KeyOrder.Batch secondBatch = order.batch(2, secondArrivals);
		List<BiConsumer<Object, Throwable>> secondReplies = track(secondBatch, second);

		secondReplies.forEach(reply -> reply.accept("OK", null));
		firstReplies.forEach(reply -> reply.accept("OK", null));

		assertThat(firstBatch.completed(first, List.of())).extracting(PipelineResult.Failure::index)
			.containsExactly(0, 1);
		assertThat(secondBatch.completed(second, List.of())).isEmpty();
	}

	@Test
	void shouldNotCountAFailedWriteAsApplied() {
		List<RedisWrite> writes = List.of(hset("a", "1"), hset("a", "2"));
		BatchReplies arrivals = new BatchReplies(writes.size());
		KeyOrder.Batch batch = order.batch(writes.size(), arrivals);
		List<BiConsumer<Object, Throwable>> replies = track(batch, writes);
		PipelineResult.Failure failed = new PipelineResult.Failure(1, writes.get(1),
				new RedisCommandExecutionException("OOM command not allowed"));

		replies.get(1).accept(null, failed.cause());
		replies.get(0).accept("OK", null);

		assertThat(batch.completed(writes, List.of(failed))).containsExactly(failed);
	}

	@Test
	void shouldForgetTheKeysOnceNoWriteStillAwaitedCanBeComparedAgainstThem() {
		List<RedisWrite> first = List.of(hset("a", "1"), hset("b", "1"));
		List<RedisWrite> second = List.of(hset("c", "1"));
		List<RedisWrite> third = List.of(hset("d", "1"));
		KeyOrder.Batch firstBatch = order.batch(2, new BatchReplies(2));
		List<BiConsumer<Object, Throwable>> firstReplies = track(firstBatch, first);
		KeyOrder.Batch secondBatch = order.batch(1, new BatchReplies(1));
		List<BiConsumer<Object, Throwable>> secondReplies = track(secondBatch, second);
		firstReplies.get(0).accept("OK", null);
		secondReplies.forEach(reply -> reply.accept("OK", null));
		assertThat(order.remembered()).isEqualTo(2);

		// the first batch still awaits a reply: only its own first write is forgotten
		secondBatch.completed(second, List.of());
		assertThat(order.remembered()).isEqualTo(1);
		firstReplies.get(1).accept("OK", null);
		// a batch counts once its replies arrived, even if it is never awaited (dropped
		// by the listener)
		KeyOrder.Batch thirdBatch = order.batch(1, new BatchReplies(1));
		track(thirdBatch, third).forEach(reply -> reply.accept("OK", null));
		thirdBatch.completed(third, List.of());
		assertThat(order.remembered()).isZero();
	}

	private static List<BiConsumer<Object, Throwable>> track(KeyOrder.Batch batch, List<RedisWrite> writes) {
		return IntStream.range(0, writes.size()).mapToObj(i -> batch.track(writes.get(i), i)).toList();
	}

}
