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

import java.util.Objects;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;

import org.jspecify.annotations.Nullable;

import io.lettuce.core.internal.ExceptionFactory;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import io.sawmill.mapping.RedisWrite;

/**
 * One command of a batch written straight to the channel, and the place its reply lands:
 * it is its own {@link CommandOutput}, so a command costs one object instead of Lettuce's
 * command, async future and output. Its bytes are encoded up front by
 * {@link RespEncoder}. Only the outcome is kept — done, or failed with the error reply,
 * the cancellation or the write failure — and the batch's replies are counted down
 * exactly once, on the first of them.
 * <p>
 * Completed by Lettuce's event loop (or by the write's failure listener); read by the
 * writing thread after the batch's await, which orders the reads after the writes.
 * <p>
 * On a cluster master's connection, whose replies Lettuce does not redirect, a
 * {@code MOVED} or {@code ASK} reply does not complete the slot when its {@link Replies}
 * take redirects: the slot is then <em>redirected</em>, and completed later with the
 * outcome of the command sent again ({@link #completeWith}) or with a failure.
 */
class ReplySlot extends ErrorOnlyOutput implements RedisCommand<byte[], byte[], Object> {

	private static final VarHandle STATE;

	static {
		try {
			STATE = MethodHandles.lookup().findVarHandle(ReplySlot.class, "state", int.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private static final int PENDING = 0;

	private static final int SUCCEEDED = 1;

	private static final int FAILED = 2;

	private static final int REDIRECTED = 3;

	/**
	 * Where a slot's outcome goes. {@link #completed} is called exactly once per slot, on
	 * the thread that completed it; {@link #redirected} at most once, before it.
	 */
	interface Replies {

		/**
		 * The slot has its outcome ({@link ReplySlot#succeeded()},
		 * {@link ReplySlot#failure()}).
		 * @param afterRedirect whether it was {@link #redirected} first
		 */
		void completed(ReplySlot slot, boolean afterRedirect);

		/**
		 * Whether a {@code MOVED} or {@code ASK} reply makes the slot {@link #redirected}
		 * rather than failed.
		 */
		default boolean takesRedirects() {
			return false;
		}

		/**
		 * Redis answered {@code MOVED} or {@code ASK}: the command was not applied, and
		 * is to be sent again.
		 */
		default void redirected(ReplySlot slot) {
			throw new UnsupportedOperationException("redirects are not taken");
		}

	}

	/**
	 * The write, or null for a command of the writer's own ({@code MULTI}, {@code EXEC}).
	 */
	private final @Nullable RedisWrite write;

	private final @Nullable ProtocolKeyword type;

	private final @Nullable RespEncoder encoding;

	private final int offset;

	private final int length;

	private final int index;

	private final Replies replies;

	@SuppressWarnings("unused") // through STATE
	private volatile int state;

	private @Nullable Throwable failure;

	/**
	 * The sequence number of Redis' acknowledgement among its connection's, when its
	 * {@link Replies} number them; 0 while there is none. Written on the event loop, read
	 * by the writing thread (of the next batch's slots too, while their replies arrive).
	 */
	private volatile long acknowledgement;

	/**
	 * Whether a {@link RedisWrite.Function}'s reply was the integer 0; set before the
	 * reply completes the slot.
	 */
	private boolean stale;

	/**
	 * Appends the command to the chunk's encoding.
	 * @param index the write's position in its batch
	 */
	ReplySlot(RedisWrite write, int index, RespEncoder encoding, Replies replies) {
		this.write = write;
		this.type = null;
		this.index = index;
		this.encoding = encoding;
		this.offset = encoding.append(write);
		this.length = encoding.size() - offset;
		this.replies = replies;
	}

	/**
	 * Appends a command of the writer's own, already encoded ({@code command}), to the
	 * chunk's encoding; it has no write and no position in the batch ({@link #index()} is
	 * -1).
	 */
	ReplySlot(ProtocolKeyword type, byte[] command, RespEncoder encoding, Replies replies) {
		this(type, encoding, encoding.appendEncoded(command), command.length, replies);
	}

	/**
	 * A write sent within another command ({@link ApplySlot}), which completes it: it is
	 * never written to a channel itself.
	 * @param index the write's position in its batch
	 */
	ReplySlot(RedisWrite write, int index, Replies replies) {
		this.write = write;
		this.type = null;
		this.index = index;
		this.encoding = null;
		this.offset = 0;
		this.length = 0;
		this.replies = replies;
	}

	/**
	 * A command of the writer's own that its subclass appended to {@code encoding} at
	 * {@code offset}.
	 */
	ReplySlot(ProtocolKeyword type, RespEncoder encoding, int offset, int length, Replies replies) {
		this.write = null;
		this.type = type;
		this.index = -1;
		this.encoding = encoding;
		this.offset = offset;
		this.length = length;
		this.replies = replies;
	}

	/**
	 * The write this slot carries; only a write's slot is asked (a command of the
	 * writer's own has none).
	 */
	RedisWrite write() {
		return Objects.requireNonNull(write, "a command of the writer's own carries no write");
	}

	/** The write's position in its batch. */
	int index() {
		return index;
	}

	/**
	 * Notes Redis' acknowledgement's sequence number; by the {@link Replies} that number
	 * them.
	 */
	void acknowledgedAs(long sequence) {
		acknowledgement = sequence;
	}

	/**
	 * The sequence number of Redis' acknowledgement, or 0 while there is none (or it is
	 * not numbered).
	 */
	long acknowledgement() {
		return acknowledgement;
	}

	/**
	 * The failure, or null when Redis acknowledged the command (or nothing arrived yet);
	 * call after the batch's await.
	 */
	@Nullable Throwable failure() {
		return failure;
	}

	/**
	 * Whether Redis acknowledged a {@link RedisWrite.Function} with 0: not applied; call
	 * after the batch's await.
	 */
	boolean stale() {
		return stale && state == SUCCEEDED;
	}

	@Override
	public void set(long integer) {
		if (integer == 0 && write instanceof RedisWrite.Function) {
			// published to the writing thread with the state, by the batch's await
			stale = true;
		}
	}

	/** Whether Redis acknowledged the command. */
	boolean succeeded() {
		return state == SUCCEEDED;
	}

	/**
	 * Whether the slot has its outcome: a reply, a failure or a cancellation (a redirect
	 * is none).
	 */
	@Override
	public boolean isDone() {
		int now = state;
		return now == SUCCEEDED || now == FAILED;
	}

	@Override
	public void encode(io.netty.buffer.ByteBuf buf) {
		// also when Lettuce replays the command after a reconnect: each slot writes only
		// its own bytes
		Objects.requireNonNull(encoding, "a write sent within another command is not encoded")
			.copyTo(buf, offset, length);
	}

	@Override
	public void complete() {
		if (!hasError()) {
			finish(SUCCEEDED, null);
		}
		else if (replies.takesRedirects() && isRedirect(getError()) && STATE.compareAndSet(this, PENDING, REDIRECTED)) {
			replies.redirected(this);
		}
		else {
			completeExceptionally(ExceptionFactory.createExecutionException(getError()));
		}
	}

	/**
	 * Hands the slot over to be sent through Lettuce's API rather than written to a
	 * channel, as if Redis had redirected it: its master's channel could not be reached
	 * when the batch was sent.
	 */
	void redirect() {
		if (STATE.compareAndSet(this, PENDING, REDIRECTED)) {
			replies.redirected(this);
		}
	}

	/**
	 * Completes a redirected slot with the outcome of the command sent again (a Lettuce
	 * future's callback).
	 */
	void completeWith(@Nullable Object reply, @Nullable Throwable cause) {
		if (cause != null) {
			completeExceptionally(
					cause instanceof CompletionException && cause.getCause() != null ? cause.getCause() : cause);
			return;
		}
		if (CommandDispatcher.stale(write, reply)) {
			// published to the writing thread with the state, by the batch's await
			stale = true;
		}
		finish(SUCCEEDED, null);
	}

	@Override
	public boolean completeExceptionally(Throwable cause) {
		return finish(FAILED, cause);
	}

	/** Sets the outcome, once: from pending, or from redirected. */
	private boolean finish(int outcome, @Nullable Throwable cause) {
		while (true) {
			int from = state;
			if (from == SUCCEEDED || from == FAILED) {
				return false;
			}
			if (STATE.compareAndSet(this, from, outcome)) {
				failure = cause; // published to the writing thread by the batch's await
				replies.completed(this, from == REDIRECTED);
				return true;
			}
		}
	}

	private static boolean isRedirect(String error) {
		return error != null && (error.startsWith("MOVED ") || error.startsWith("ASK "));
	}

	@Override
	public void cancel() {
		completeExceptionally(new CancellationException("the command was cancelled: its connection was closed"));
	}

	@Override
	public boolean isCancelled() {
		return failure instanceof CancellationException;
	}

	@Override
	public CommandOutput<byte[], byte[], Object> getOutput() {
		return this;
	}

	@Override
	public void setOutput(CommandOutput<byte[], byte[], Object> output) {
		throw new UnsupportedOperationException("a reply slot is its own output");
	}

	@Override
	public @Nullable CommandArgs<byte[], byte[]> getArgs() {
		return null;
	}

	@Override
	public @Nullable ProtocolKeyword getType() {
		if (write == null) {
			return type;
		}
		if (write instanceof RedisWrite.HashSet) {
			return CommandType.HSET;
		}
		if (write instanceof RedisWrite.Expire) {
			return CommandType.EXPIRE;
		}
		if (write instanceof RedisWrite.Function) {
			return CommandType.FCALL;
		}
		return write instanceof RedisWrite.Delete ? CommandType.DEL
				: CommandDispatcher.keyword((RedisWrite.Command) write);
	}

	@Override
	public String toString() {
		return "ReplySlot[" + (write != null ? write : type) + "]";
	}

}
