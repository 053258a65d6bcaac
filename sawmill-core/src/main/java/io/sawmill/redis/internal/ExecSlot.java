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
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.lettuce.core.internal.ExceptionFactory;
import io.lettuce.core.protocol.CommandType;
import io.sawmill.mapping.RedisWrite;

/**
 * The {@code EXEC} of one transaction written straight to the channel, and the place its
 * reply lands. The reply is either an error ({@code EXECABORT} after a command was
 * refused at queue time, or {@code EXEC} itself refused), which fails this slot as any
 * error fails a {@link ReplySlot}, or an array with one element per queued command, in
 * order. An error element means that command failed when the transaction ran, and the
 * others applied: it is kept by its index ({@link #errorOf}). An integer 0 from a
 * {@link RedisWrite.Function} marks that write stale ({@link #staleAt}), as
 * {@link ReplySlot} does outside a transaction. A null array means the transaction
 * applied nothing because a key the connection watched changed ({@link #aborted}).
 * <p>
 * Lettuce's decoder calls {@link #multi} when an array starts and {@link #complete(int)}
 * with the depth left after each element, so an element of the top-level array ends at
 * depth 1.
 * <p>
 * Filled by Lettuce's event loop; read by the writing thread after the batch's await.
 */
final class ExecSlot extends ReplySlot {

	private static final byte[] EXEC = RespEncoder.encodedCommand("EXEC");

	private final List<RedisWrite> writes;

	/**
	 * Per queued command, its error when the transaction ran; null where it succeeded.
	 */
	private final Throwable[] errors;

	private final boolean[] stale;

	/** How many arrays are open in the reply: 0 before it starts and once it ended. */
	private int open;

	private boolean started;

	/** Whether the reply was a null array: a watched key changed, nothing applied. */
	private boolean aborted;

	/** The element of the top-level array being read. */
	private int element;

	/**
	 * @param writes the transaction's queued commands, in order
	 */
	ExecSlot(List<RedisWrite> writes, RespEncoder encoding, BatchReplies replies) {
		super(CommandType.EXEC, EXEC, encoding, replies);
		this.writes = writes;
		this.errors = new Throwable[writes.size()];
		this.stale = new boolean[writes.size()];
	}

	/**
	 * The error of the {@code index}th queued command when the transaction ran, or null;
	 * call after the batch's await, when {@link #succeeded()}.
	 */
	Throwable errorOf(int index) {
		return errors[index];
	}

	/**
	 * Whether the {@code index}th queued command, a {@link RedisWrite.Function}, replied
	 * 0.
	 */
	boolean staleAt(int index) {
		return stale[index];
	}

	/**
	 * Whether the transaction applied nothing because a key the connection watched
	 * changed (the reply was a null array); call after the batch's await, when
	 * {@link #succeeded()}.
	 */
	boolean aborted() {
		return aborted;
	}

	@Override
	public void multi(int count) {
		if (count < 0 && open == 0) {
			aborted = true;
			return;
		}
		started = true;
		open++;
	}

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		if (bytes == null && open == 0) {
			aborted = true;
		}
	}

	@Override
	public void complete(int depth) {
		if (started && depth == 1 && open > 0) {
			element++;
		}
		open = depth;
	}

	@Override
	public void setError(ByteBuffer error) {
		if (open > 0) {
			setElementError(decodeString(error));
		}
		else {
			super.setError(error);
		}
	}

	@Override
	public void setError(String error) {
		if (open > 0) {
			setElementError(error);
		}
		else {
			super.setError(error);
		}
	}

	private void setElementError(String error) {
		if (element < errors.length && errors[element] == null) {
			errors[element] = ExceptionFactory.createExecutionException(error);
		}
	}

	@Override
	public void set(long integer) {
		if (open == 1 && integer == 0 && element < writes.size()
				&& writes.get(element) instanceof RedisWrite.Function) {
			stale[element] = true;
		}
	}

	@Override
	public String toString() {
		return "ExecSlot[" + writes.size() + " commands]";
	}

}
