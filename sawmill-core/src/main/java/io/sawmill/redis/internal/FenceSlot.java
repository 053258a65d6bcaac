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

import java.nio.charset.StandardCharsets;

import io.lettuce.core.protocol.CommandType;
import io.sawmill.redis.internal.TransactionalBatchWriter.Transaction;

/**
 * The fence of one {@link Transaction}, sent after {@code WATCH <fence>} and before its
 * {@code MULTI}: a script that replies 1 when the key holds the expected value (a missing
 * key holds 0), and otherwise writes the key's value back unchanged, which makes the
 * connection's {@code WATCH} fail the transaction's {@code EXEC}, and replies 0. The
 * script runs in {@code EVAL}, so a Redis that restarted, failed over or flushed its
 * scripts needs nothing loaded first.
 * <p>
 * Filled by Lettuce's event loop; read by the writing thread after the batch's await.
 */
final class FenceSlot extends ReplySlot {

	private static final byte[] EVAL = "EVAL".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] SCRIPT = ("local v = redis.call('GET', KEYS[1]) or '0' "
			+ "if v == ARGV[1] then return 1 end redis.call('SET', KEYS[1], v) return 0")
		.getBytes(StandardCharsets.US_ASCII);

	private static final byte[] WATCH = "WATCH".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] ONE_KEY = "1".getBytes(StandardCharsets.US_ASCII);

	private boolean held;

	private FenceSlot(RespEncoder encoding, int offset, BatchReplies replies) {
		super(CommandType.EVAL, encoding, offset, encoding.size() - offset, replies);
	}

	/** Appends the fence of {@code transaction} to {@code encoding}. */
	static FenceSlot of(Transaction transaction, RespEncoder encoding, BatchReplies replies) {
		int offset = encoding.appendCommand(EVAL, SCRIPT, ONE_KEY, transaction.fence(),
				Long.toString(transaction.expected()).getBytes(StandardCharsets.US_ASCII));
		return new FenceSlot(encoding, offset, replies);
	}

	/** Appends {@code WATCH <fence>} of {@code transaction} to {@code encoding}. */
	static ReplySlot watch(Transaction transaction, RespEncoder encoding, BatchReplies replies) {
		int offset = encoding.appendCommand(WATCH, transaction.fence());
		return new ReplySlot(CommandType.WATCH, encoding, offset, encoding.size() - offset, replies);
	}

	/**
	 * Whether the key held the expected value when the script ran; call after the batch's
	 * await, when {@link #succeeded()}.
	 */
	boolean held() {
		return held;
	}

	@Override
	public void set(long integer) {
		// published to the writing thread with the state, by the batch's await
		held = integer == 1;
	}

	@Override
	public String toString() {
		return "FenceSlot";
	}

}
