package io.sawmill.redis.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.PipelineConfig;
import io.sawmill.redis.PipelineResult;
import io.sawmill.redis.RedisBatchWriter;

/**
 * The default {@link RedisBatchWriter}: the native Lettuce client behind Spring Data Redis'
 * connection factory, one auto-flush-off connection per listener thread, one flush per chunk.
 * <p>
 * On a standalone (or Sentinel-managed) connection each chunk is written to the connection's
 * channel as one message of {@link ReplySlot}s, encoded up front by {@link RespEncoder}: one event
 * loop task, one buffer and one flush per chunk, one small object per command. On a cluster
 * connection, whose commands are routed by slot, they are queued through Lettuce's async API and
 * flushed per chunk; a write that a MOVED or ASK redirect let a later write to its key overtake is
 * reported as a transient failure ({@link KeyOrder}), so that it is written again in order.
 * <p>
 * Connections are opened up front ({@link #open(int)}) and handed to threads on first use, so
 * the data path never connects. {@link #send} returns once the batch is on the wire, so a thread
 * can send its next batch before it awaits this one's replies. A connection is replaced only after
 * a timeout or a connection failure: its queued commands (the next batch's too) are then cancelled
 * by closing it, so a late command of a failed batch can never overwrite a newer value.
 */
public final class LettucePipelinedWriter implements RedisBatchWriter {

	private static final Logger log = LoggerFactory.getLogger(LettucePipelinedWriter.class);

	private final Supplier<AbstractRedisClient> client;
	private final PipelineConfig config;
	private final List<DedicatedConnection> idle = new ArrayList<>();
	private final Map<Thread, DedicatedConnection> byThread = new ConcurrentHashMap<>();

	/**
	 * The average encoded size of the last batch's commands, to size the next chunk's array so it
	 * rarely grows. Shared by the threads without locking: a stale value only costs a regrowth.
	 */
	private volatile int bytesPerCommand = 128;

	/**
	 * How often a cluster batch still waiting for replies is flushed again, for the commands Lettuce
	 * re-queued after a redirect; a batch without redirects has its replies long before.
	 */
	private static final long REDIRECT_FLUSH_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	/** A chunk's array starts no larger than this and grows as its commands need. */
	private static final int MAX_INITIAL_CHUNK_BYTES = 64 << 20;

	public LettucePipelinedWriter(Supplier<AbstractRedisClient> client, PipelineConfig config) {
		this.client = client;
		this.config = config;
	}

	/**
	 * Opens {@code connections} connections now (one per listener thread), so that a Redis that
	 * cannot be reached fails start-up rather than the first batch.
	 */
	public synchronized void open(int connections) {
		while (idle.size() + byThread.size() < connections) {
			idle.add(DedicatedConnection.open(client.get()));
		}
	}

	@Override
	public PipelineResult write(List<RedisWrite> writes) {
		return send(writes).await();
	}

	/**
	 * Puts the batch on the wire. Its replies land while the caller does other work (maps and sends
	 * the next batch); {@link Sent#await} collects them, and replaces the connection when it failed.
	 */
	@Override
	public Sent send(List<RedisWrite> writes) {
		if (writes.isEmpty()) {
			PipelineResult none = new PipelineResult(0, 0, List.of());
			return () -> none;
		}
		DedicatedConnection connection;
		try {
			connection = connectionForCurrentThread();
		}
		catch (RuntimeException ex) {
			PipelineResult failed = new PipelineResult(writes.size(), 0, failAll(writes, List.of(), ex));
			return () -> failed;
		}
		long deadline = System.nanoTime() + config.timeout().toNanos();
		Channel channel = connection.directChannel();
		Sent batch = channel != null ? sendToChannel(channel, writes, deadline)
				: sendThroughEndpoint(connection, writes, deadline);
		Sent sent = config.waitForReplicas() > 0 ? ReplicaWait.after(batch, connection, writes, config, deadline) : batch;
		return new Sent() {
			@Override
			public PipelineResult await() {
				PipelineResult result = sent.await();
				if (!result.succeeded() && isConnectionFailure(result.failures())) {
					replaceConnection(connection);
				}
				return result;
			}

			@Override
			public long lastReplyNanos() {
				return sent.lastReplyNanos();
			}
		};
	}

	/** A batch on the wire whose replies land in {@code replies}; {@code collect} reads their outcome. */
	private static Sent sent(BatchReplies replies, Supplier<PipelineResult> collect) {
		return new Sent() {
			@Override
			public PipelineResult await() {
				return collect.get();
			}

			@Override
			public long lastReplyNanos() {
				return replies.lastArrivedNanos();
			}
		};
	}

	/**
	 * Each chunk is one message on the channel: Lettuce's command handler puts its commands on the
	 * reply stack in order and encodes them into one buffer, flushed once.
	 */
	private Sent sendToChannel(Channel channel, List<RedisWrite> writes, long deadline) {
		int count = writes.size();
		int max = config.maxCommandsPerChunk();
		BatchReplies replies = new BatchReplies(count);
		ReplySlot[] slots = new ReplySlot[count];
		int chunks = 0;
		long encodedBytes = 0;
		for (int start = 0; start < count; start += max) {
			int end = Math.min(count, start + max);
			RespEncoder encoding = new RespEncoder(
					(int) Math.min(MAX_INITIAL_CHUNK_BYTES, (long) (end - start) * bytesPerCommand));
			for (int i = start; i < end; i++) {
				slots[i] = new ReplySlot(writes.get(i), encoding, replies);
			}
			List<ReplySlot> chunk = Arrays.asList(slots).subList(start, end);
			encodedBytes += encoding.size();
			ChannelPromise written = channel.newPromise();
			written.addListener(future -> {
				if (!future.isSuccess()) {
					chunk.forEach(slot -> slot.completeExceptionally(future.cause()));
				}
			});
			channel.writeAndFlush(chunk, written);
			chunks++;
		}
		bytesPerCommand = (int) Math.min(1 << 20, encodedBytes / count + 8);
		int flushes = chunks;
		return sent(replies, () -> {
			boolean interrupted = false;
			try {
				replies.await(Math.max(0, deadline - System.nanoTime()));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				interrupted = true;
			}
			List<PipelineResult.Failure> failures = new ArrayList<>(0);
			for (int i = 0; i < count; i++) {
				ReplySlot slot = slots[i];
				if (!slot.succeeded()) {
					Throwable cause = slot.failure();
					failures.add(new PipelineResult.Failure(i, writes.get(i),
							cause != null ? cause : interrupted ? new InterruptedException() : timeout()));
				}
			}
			return new PipelineResult(count, flushes, failures);
		});
	}

	/**
	 * Commands queue on the endpoint, one flush per chunk: for Redis Cluster (routed per slot), and
	 * while the channel cannot be reached (reconnecting, or a Lettuce that hides it).
	 */
	private Sent sendThroughEndpoint(DedicatedConnection connection, List<RedisWrite> writes, long deadline) {
		List<RedisFuture<?>> replies = new ArrayList<>(writes.size());
		BatchReplies arrivals = new BatchReplies(writes.size());
		// on a cluster connection, whether redirects let a write to a key overtake an earlier one
		KeyOrder.Batch ordered = connection.keyOrder() != null
				? connection.keyOrder().batch(writes.size(), arrivals)
				: null;
		int chunks = 0;
		int inChunk = 0;
		int max = config.maxCommandsPerChunk();
		try {
			connection.connectMasters();
			for (int i = 0; i < writes.size(); i++) {
				RedisWrite write = writes.get(i);
				RedisFuture<?> reply = CommandDispatcher.dispatch(connection.commands(), write);
				reply.whenComplete(ordered == null ? arrivals : ordered.track(write, i));
				replies.add(reply);
				if (++inChunk == max) {
					connection.flush();
					chunks++;
					inChunk = 0;
				}
			}
			if (inChunk > 0) {
				connection.flush();
				chunks++;
			}
		}
		catch (RuntimeException ex) {
			PipelineResult failed = new PipelineResult(writes.size(), chunks, failAll(writes, replies, ex));
			return () -> failed;
		}
		int flushes = chunks;
		return sent(arrivals, () -> {
			Arrival arrival = awaitArrivals(connection, arrivals, deadline);
			List<PipelineResult.Failure> failures = outcomes(writes, replies, arrival);
			// when some reply never arrived, the connection is replaced, and its key order with it
			if (ordered != null && arrival == Arrival.ALL) {
				failures = ordered.completed(writes, failures);
			}
			return new PipelineResult(writes.size(), flushes, failures);
		});
	}

	/** How the wait for a batch's replies ended. */
	private enum Arrival {
		ALL, TIMED_OUT, INTERRUPTED
	}

	private RedisCommandTimeoutException timeout() {
		return new RedisCommandTimeoutException("no reply within " + config.timeout() + " (sawmill.pipeline.timeout)");
	}

	/**
	 * Waits until every reply's callback ran, in slices, flushing between them: a command that Lettuce
	 * sends again after a MOVED or ASK redirect (while slots move between masters) is queued on the
	 * other master's connection, whose auto-flush is off as well, and would otherwise wait there until
	 * the timeout. It waits on the callbacks' count, never on the replies' futures: a thread waiting
	 * on a future may run that future's callbacks itself, later than the event loop runs those of the
	 * replies after it, and {@link KeyOrder} needs them in the order each master replied.
	 */
	private static Arrival awaitArrivals(DedicatedConnection connection, BatchReplies arrivals, long deadline) {
		try {
			while (!arrivals.await(Math.max(0, Math.min(REDIRECT_FLUSH_INTERVAL_NANOS, deadline - System.nanoTime())))) {
				if (deadline - System.nanoTime() <= 0) {
					return Arrival.TIMED_OUT;
				}
				connection.flush();
			}
			return Arrival.ALL;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Arrival.INTERRUPTED;
		}
	}

	/** The failure of each reply that is an error, and of each that did not arrive. */
	private List<PipelineResult.Failure> outcomes(List<RedisWrite> writes, List<RedisFuture<?>> replies,
			Arrival arrival) {
		List<PipelineResult.Failure> failures = new ArrayList<>(0);
		for (int i = 0; i < replies.size(); i++) {
			RedisFuture<?> reply = replies.get(i);
			Throwable cause;
			if (!reply.isDone()) {
				cause = arrival == Arrival.INTERRUPTED ? new InterruptedException() : timeout();
			}
			else {
				try {
					reply.get();
					continue;
				}
				catch (ExecutionException ex) {
					cause = ex.getCause();
				}
				catch (CancellationException | InterruptedException ex) {
					cause = ex;
				}
			}
			failures.add(new PipelineResult.Failure(i, writes.get(i), cause));
		}
		return failures;
	}

	private static List<PipelineResult.Failure> failAll(List<RedisWrite> writes, List<? extends RedisFuture<?>> replies,
			RuntimeException cause) {
		List<PipelineResult.Failure> failures = new ArrayList<>(writes.size());
		for (int i = 0; i < writes.size(); i++) {
			failures.add(new PipelineResult.Failure(i, writes.get(i), cause));
		}
		replies.forEach(reply -> reply.cancel(true));
		return failures;
	}

	/** Whether a failure left the connection in an unknown state (anything but an error reply or an overtake). */
	static boolean isConnectionFailure(List<PipelineResult.Failure> failures) {
		return failures.stream()
			.anyMatch(f -> !(f.cause() instanceof io.lettuce.core.RedisCommandExecutionException)
					&& !(f.cause() instanceof KeyOrder.Overtaken));
	}

	/**
	 * PINGs the calling thread's connection if it has one, otherwise every connection not yet handed
	 * to a thread, without handing any to the caller (a start-up check on the main thread must not
	 * take a listener thread's connection).
	 */
	@Override
	public void ping() {
		DedicatedConnection own = byThread.get(Thread.currentThread());
		List<DedicatedConnection> targets;
		synchronized (this) {
			if (own == null && idle.isEmpty()) {
				idle.add(DedicatedConnection.open(client.get()));
			}
			targets = own != null ? List.of(own) : List.copyOf(idle);
		}
		for (DedicatedConnection connection : targets) {
			ping(connection);
		}
	}

	private void ping(DedicatedConnection connection) {
		RedisFuture<String> pong = connection.commands().ping();
		connection.flush();
		try {
			pong.get(config.timeout().toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while waiting for PING", ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			Throwable cause = ex instanceof ExecutionException && ex.getCause() != null ? ex.getCause() : ex;
			throw new IllegalStateException("Redis did not answer PING within " + config.timeout() + ": " + cause, ex);
		}
	}

	private DedicatedConnection connectionForCurrentThread() {
		DedicatedConnection connection = byThread.get(Thread.currentThread());
		if (connection != null) {
			return connection;
		}
		synchronized (this) {
			byThread.entrySet().removeIf(owned -> !owned.getKey().isAlive() && idle.add(owned.getValue()));
			connection = idle.isEmpty() ? DedicatedConnection.open(client.get()) : idle.remove(idle.size() - 1);
			byThread.put(Thread.currentThread(), connection);
			return connection;
		}
	}

	private void replaceConnection(DedicatedConnection broken) {
		byThread.remove(Thread.currentThread(), broken);
		try {
			broken.close();
		}
		catch (RuntimeException ex) {
			log.debug("Closing a failed Redis connection failed", ex);
		}
	}

	@Override
	public synchronized void close() {
		idle.forEach(LettucePipelinedWriter::closeQuietly);
		idle.clear();
		byThread.values().forEach(LettucePipelinedWriter::closeQuietly);
		byThread.clear();
	}

	/** At shutdown the client may already be gone, closing its connections with it. */
	private static void closeQuietly(DedicatedConnection connection) {
		if (connection.isOpen()) {
			connection.close();
		}
	}
}
