package io.sawmill.redis.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;

import io.lettuce.core.internal.ExceptionFactory;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import io.sawmill.mapping.RedisWrite;

/**
 * One command of a batch written straight to the channel, and the place its reply lands: it is its
 * own {@link CommandOutput}, so a command costs one object instead of Lettuce's command, async
 * future and output. Its bytes are encoded up front by {@link RespEncoder}. Only the outcome is kept — done,
 * or failed with the error reply, the cancellation or the write failure — and the batch's replies are
 * counted down exactly once, on the first of them.
 * <p>
 * Completed by Lettuce's event loop (or by the write's failure listener); read by the writing
 * thread after the batch's await, which orders the reads after the writes.
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

	/** The write, or null for a command of the writer's own ({@code MULTI}, {@code EXEC}). */
	private final RedisWrite write;

	private final ProtocolKeyword type;

	private final RespEncoder encoding;

	private final int offset;

	private final int length;

	private final BatchReplies replies;

	@SuppressWarnings("unused") // through STATE
	private volatile int state;

	private Throwable failure;

	/** Whether a {@link RedisWrite.Function}'s reply was the integer 0; set before the reply completes the slot. */
	private boolean stale;

	/** Appends the command to the chunk's encoding. */
	ReplySlot(RedisWrite write, RespEncoder encoding, BatchReplies replies) {
		this.write = write;
		this.type = null;
		this.encoding = encoding;
		this.offset = encoding.append(write);
		this.length = encoding.size() - offset;
		this.replies = replies;
	}

	/** Appends a command of the writer's own, already encoded ({@code command}), to the chunk's encoding. */
	ReplySlot(ProtocolKeyword type, byte[] command, RespEncoder encoding, BatchReplies replies) {
		this.write = null;
		this.type = type;
		this.encoding = encoding;
		this.offset = encoding.appendEncoded(command);
		this.length = command.length;
		this.replies = replies;
	}

	/** The failure, or null when Redis acknowledged the command (or nothing arrived yet); call after the batch's await. */
	Throwable failure() {
		return failure;
	}

	/** Whether Redis acknowledged a {@link RedisWrite.Function} with 0: not applied; call after the batch's await. */
	boolean stale() {
		return stale && state == SUCCEEDED;
	}

	@Override
	public void set(long integer) {
		if (integer == 0 && write instanceof RedisWrite.Function) {
			stale = true; // published to the writing thread with the state, by the batch's await
		}
	}

	/** Whether Redis acknowledged the command. */
	boolean succeeded() {
		return state == SUCCEEDED;
	}

	/** Whether a reply, a failure or a cancellation arrived; call after the batch's await. */
	@Override
	public boolean isDone() {
		return state != PENDING;
	}

	@Override
	public void encode(io.netty.buffer.ByteBuf buf) {
		// also when Lettuce replays the command after a reconnect: each slot writes only its own bytes
		encoding.copyTo(buf, offset, length);
	}

	@Override
	public void complete() {
		if (hasError()) {
			completeExceptionally(ExceptionFactory.createExecutionException(getError()));
		}
		else if (STATE.compareAndSet(this, PENDING, SUCCEEDED)) {
			replies.arrived();
		}
	}

	@Override
	public boolean completeExceptionally(Throwable cause) {
		if (STATE.compareAndSet(this, PENDING, FAILED)) {
			failure = cause; // published to the writing thread by the batch's await
			replies.arrived();
			return true;
		}
		return false;
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
	public CommandArgs<byte[], byte[]> getArgs() {
		return null;
	}

	@Override
	public ProtocolKeyword getType() {
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
		return write instanceof RedisWrite.Delete ? CommandType.DEL : CommandDispatcher.keyword((RedisWrite.Command) write);
	}

	@Override
	public String toString() {
		return "ReplySlot[" + (write != null ? write : type) + "]";
	}
}
