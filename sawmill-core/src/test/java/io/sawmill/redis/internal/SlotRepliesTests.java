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
import static org.awaitility.Awaitility.await;

import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sawmill.mapping.RedisWrite;

/**
 * {@link SlotReplies} without a server: replies are delivered to the batches'
 * {@link ReplySlot}s by hand, in the order a cluster's masters would have sent them, and
 * a write answered {@code MOVED} is completed later as its sending again would complete
 * it. The redirects themselves, against a real cluster, are in
 * {@code LettucePipelinedWriterReshardTests}.
 */
class SlotRepliesTests {

	private final SlotReplies.Sequence connection = new SlotReplies.Sequence();

	private static RedisWrite hset(String key, String value) {
		return RedisWrite.hset(key, Map.of("v", value));
	}

	private static RedisWrite expire(String key) {
		return RedisWrite.expire(key.getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(60));
	}

	/**
	 * A batch encoded as {@link SlotSend} encodes it, its slots in {@link Batch#slots}.
	 */
	private Batch send(List<RedisWrite> writes) {
		ReplySlot[] slots = new ReplySlot[writes.size()];
		SlotReplies replies = connection.next(slots);
		RespEncoder encoding = new RespEncoder(256);
		for (int i = 0; i < slots.length; i++) {
			slots[i] = new ReplySlot(writes.get(i), i, encoding, replies);
		}
		return new Batch(writes, slots, replies);
	}

	private static void ok(ReplySlot slot) {
		slot.complete();
	}

	private static void moved(ReplySlot slot) {
		slot.setError("MOVED 1234 127.0.0.1:7001");
		slot.complete();
	}

	@Test
	void shouldReportNothingWhenNoWriteWasSentAgain() {
		Batch batch = send(List.of(hset("a", "1"), expire("a"), hset("a", "2")));
		// acknowledged in an order no master would reply in: only a write sent again is
		// compared
		ok(batch.slots[2]);
		ok(batch.slots[0]);
		ok(batch.slots[1]);

		assertThat(batch.replies.first().allArrived()).isTrue();
		assertThat(batch.replies.anyRedirected()).isFalse();
		assertThat(batch.completed()).isEmpty();
	}

	@Test
	void shouldReportNothingWhenTheWritesSentAgainAreAcknowledgedBeforeTheLaterWritesToTheirKeys() {
		Batch batch = send(List.of(hset("a", "1"), expire("a"), hset("b", "1")));
		moved(batch.slots[0]);
		moved(batch.slots[1]);
		ok(batch.slots[2]);
		List<ReplySlot> again = batch.replies.resending();

		again.forEach(slot -> slot.completeWith("OK", null));

		assertThat(again).extracting(ReplySlot::index).containsExactly(0, 1);
		assertThat(batch.replies.resent().allArrived()).isTrue();
		assertThat(batch.completed()).isEmpty();
	}

	@Test
	void shouldReportAWriteSentAgainThatALaterWriteOfItsBatchOvertook() {
		Batch batch = send(List.of(hset("a", "1"), hset("b", "1"), expire("a")));
		moved(batch.slots[0]);
		ok(batch.slots[1]);
		ok(batch.slots[2]); // the slot's state changed between the two writes to "a"
		batch.replies.resending().forEach(slot -> slot.completeWith("OK", null));

		assertThat(batch.completed()).singleElement().satisfies(failure -> {
			assertThat(failure.index()).isZero();
			assertThat(failure.cause()).isInstanceOf(KeyOrder.Overtaken.class);
			assertThat(FailureClass.of(failure.cause())).isEqualTo(FailureClass.TRANSIENT);
		});
	}

	@Test
	void shouldReportAWriteSentAgainThatTheNextBatchInFlightOvertookButNotOneItDidNot() {
		Batch first = send(List.of(hset("a", "1"), hset("b", "1")));
		Batch second = send(List.of(hset("a", "2"), hset("b", "2")));
		moved(first.slots[0]);
		moved(first.slots[1]);
		// a topology refresh routed the next batch's write to "a" straight to the slot's
		// new master
		ok(second.slots[0]);
		List<ReplySlot> again = first.replies.resending();
		again.forEach(slot -> slot.completeWith("OK", null));
		ok(second.slots[1]); // after the write sent again: in order

		assertThat(first.completed()).extracting(PipelineResult.Failure::index).containsExactly(0);
	}

	@Test
	void shouldNotReportAWriteSentAgainThatFailed() {
		Batch batch = send(List.of(hset("a", "1"), hset("a", "2")));
		moved(batch.slots[0]);
		ok(batch.slots[1]);
		ReplySlot again = batch.replies.resending().get(0);

		again.completeWith(null, new IllegalStateException("no reply"));

		PipelineResult.Failure failed = new PipelineResult.Failure(0, batch.writes.get(0), again.failure());
		assertThat(batch.replies.completed(batch.writes, List.of(failed))).containsExactly(failed);
	}

	@Test
	void shouldCountARedirectAsTheWritesFirstReplyAndItsOutcomeApart() {
		Batch batch = send(List.of(hset("a", "1"), hset("b", "1")));
		moved(batch.slots[0]);
		ok(batch.slots[1]);

		assertThat(batch.replies.first().allArrived()).isTrue();
		assertThat(batch.replies.moved()).isTrue();
		assertThat(batch.slots[0].isDone()).as("a redirect is no outcome").isFalse();
		List<ReplySlot> again = batch.replies.resending();
		assertThat(batch.replies.resent().allArrived()).isFalse();
		again.get(0).completeWith("OK", null);
		assertThat(batch.replies.resent().allArrived()).isTrue();
		assertThat(batch.slots[0].succeeded()).isTrue();
	}

	private record Batch(List<RedisWrite> writes, ReplySlot[] slots, SlotReplies replies) {

		List<PipelineResult.Failure> completed() {
			return replies.completed(writes, new ArrayList<>());
		}
	}

	@Test
	void shouldNotKeepTheBatchSentAfterItReachableOnceDone() {
		SlotReplies.Sequence sequence = new SlotReplies.Sequence();
		SlotReplies done = sequence.next(new ReplySlot[1]);
		WeakReference<SlotReplies> later = new WeakReference<>(sequence.next(new ReplySlot[1]));
		// the connection was replaced: only the finished batch is still referenced
		sequence = null;

		done.done();

		await("the later batch collected").atMost(Duration.ofSeconds(10)).until(() -> {
			System.gc();
			return later.get() == null;
		});
		assertThat(done).isNotNull();
	}

}
