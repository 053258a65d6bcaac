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

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.RedisException;
import io.lettuce.core.internal.ExceptionFactory;
import io.lettuce.core.protocol.CommandType;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.VersionGuard;

/**
 * One {@code FCALL sawmill_apply} carrying a run of consecutive version-guarded writes
 * ({@link VersionGuard#batchable}), each of which keeps a {@link ReplySlot} of its own:
 * the reply's elements complete them in order (1 applied, 0 stale, a string the write's
 * error), so every write keeps its own outcome. An error reply to the whole call is each
 * write's reply; a write failure or a cancellation fails each of them alike.
 * <p>
 * Only this slot is written to the channel; its members are not, and its own completion
 * counts nothing.
 */
final class ApplySlot extends ReplySlot {

	/**
	 * The most writes one call carries: beyond a few dozen a longer call saves the server
	 * nothing more.
	 */
	static final int MAX_WRITES = 64;

	private static final Replies UNCOUNTED = (slot, afterRedirect) -> {
	};

	private final ReplySlot[] members;

	/** How many elements of the reply arrived; on the event loop only. */
	private int next;

	private ApplySlot(ReplySlot[] members, RespEncoder encoding, int offset) {
		super(CommandType.FCALL, encoding, offset, encoding.size() - offset, UNCOUNTED);
		this.members = members;
	}

	/**
	 * How many writes from {@code from} (up to {@code to}, exclusive) one call can carry:
	 * the run of consecutive batchable writes there, at most {@link #MAX_WRITES}.
	 */
	static int run(List<RedisWrite> writes, int from, int to) {
		int end = Math.min(to, from + MAX_WRITES);
		int at = from;
		while (at < end && VersionGuard.batchable(writes.get(at))) {
			at++;
		}
		return at - from;
	}

	/**
	 * Appends one call of {@code writes[from, from + count)} to {@code encoding}, and
	 * puts each write's own slot into {@code slots} at its position.
	 */
	static ApplySlot of(List<RedisWrite> writes, int from, int count, RespEncoder encoding, ReplySlot[] slots,
			Replies replies) {
		ReplySlot[] members = new ReplySlot[count];
		List<RedisWrite.Function> functions = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			RedisWrite write = writes.get(from + i);
			members[i] = slots[from + i] = new ReplySlot(write, from + i, replies);
			functions.add((RedisWrite.Function) write);
		}
		return new ApplySlot(members, encoding, encoding.appendApply(functions));
	}

	@Override
	public void multi(int count) {
		// the elements arrive one by one
	}

	@Override
	public void set(long integer) {
		if (next < members.length) {
			ReplySlot member = members[next++];
			member.set(integer);
			member.complete();
		}
	}

	@Override
	public void set(ByteBuffer bytes) {
		if (next < members.length) {
			ReplySlot member = members[next++];
			member.setError(bytes == null ? "ERR empty reply" : StandardCharsets.UTF_8.decode(bytes).toString());
			member.complete();
		}
	}

	@Override
	public void complete() {
		if (hasError()) {
			for (ReplySlot member : members) {
				if (!member.isDone()) { // each as if the error were its own reply
					member.setError(getError());
					member.complete();
				}
			}
			super.completeExceptionally(ExceptionFactory.createExecutionException(getError()));
		}
		else if (next < members.length) {
			completeExceptionally(new RedisException(
					VersionGuard.APPLY + " replied " + next + " elements for " + members.length + " writes"));
		}
		else {
			super.complete();
		}
	}

	@Override
	public boolean completeExceptionally(Throwable cause) {
		for (ReplySlot member : members) {
			member.completeExceptionally(cause); // none for those that have their outcome
		}
		return super.completeExceptionally(cause);
	}

	@Override
	public String toString() {
		return "ApplySlot[" + members.length + " writes]";
	}

}
