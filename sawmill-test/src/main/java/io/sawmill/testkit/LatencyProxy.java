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
package io.sawmill.testkit;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on loopback that delays every byte by a fixed one-way delay in each
 * direction, so a client talking to a local server through it sees a round trip of
 * {@code 2 × oneWayDelay} plus the loopback time. It stands in for network latency where
 * kernel netem is not available.
 * <p>
 * Each direction of each connection has a reader thread, which timestamps every chunk it
 * reads, and a writer thread, which forwards the chunks in the order they were read, each
 * one no earlier than its read time plus the delay. Bytes are therefore never reordered,
 * and bandwidth is not limited: the proxy models propagation delay, not a slow link. The
 * writer parks until shortly before a chunk is due and spins for the rest, so short
 * delays (50 µs) are kept too; how late each chunk actually went out is recorded and
 * reported by {@link #stats()}.
 * <p>
 * A network takes no CPU from the hosts, but this proxy's threads share the cores with
 * the client and the server: on a busy machine a thread that is due waits for a core, and
 * every microsecond it waits is added to the round trip. {@link Priority#REALTIME} asks
 * the kernel to run the proxy's threads ahead of everything else ({@code SCHED_FIFO},
 * through util-linux {@code chrt}, which needs root or {@code CAP_SYS_NICE}); where that
 * is refused they run as {@link Priority#NORMAL} threads, and {@link Stats} says how many
 * of each there were. The threads are pooled, so a client that opens a connection per
 * request (Spring Data Redis' {@code executePipelined} does) does not cost two thread
 * starts per direction.
 * <p>
 * {@link #setDelay(Duration)} changes the delay at run time for chunks read from then on
 * (chunks already queued keep theirs; order is still preserved). {@link #close()} closes
 * the listening socket and every proxied connection. Thread-safe.
 */
public final class LatencyProxy implements AutoCloseable {

	/** Parking wakes up this much late on Linux (timer slack); the remainder is spun. */
	private static final long SPIN_NANOS = 80_000;

	/** Real-time threads have no timer slack: parking wakes within a few microseconds. */
	private static final long REALTIME_SPIN_NANOS = 20_000;

	/**
	 * The {@code SCHED_FIFO} priority of the proxy's threads (1–99; above every normal
	 * thread at any value).
	 */
	private static final int REALTIME_PRIORITY = 10;

	/** How the proxy's threads are scheduled. */
	public enum Priority {

		/**
		 * Like every other thread: on a busy machine a chunk that is due can wait for a
		 * core.
		 */
		NORMAL,

		/**
		 * {@code SCHED_FIFO} where the kernel allows it: a due chunk goes out within
		 * microseconds, at the price of the proxy preempting the client and the server
		 * every time it runs. With a client that flushes per command, that is once per
		 * command, which takes much of that client's throughput on a machine with few
		 * cores (docs/benchmarks.md, Method).
		 */
		REALTIME

	}

	/**
	 * Lateness histogram: one-microsecond buckets up to this many; later chunks land in
	 * the last one.
	 */
	private static final int LATENESS_BUCKETS = 10_000;

	private final String targetHost;

	private final int targetPort;

	private final ServerSocket server;

	private final Thread acceptor;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final Priority priority;

	private final ExecutorService threads;

	/**
	 * Switches new pool threads to {@code SCHED_FIFO} one by one, off the data path (a
	 * process start each).
	 */
	private final ExecutorService scheduler;

	private final AtomicLong realtimeThreads = new AtomicLong();

	private final AtomicLong normalThreads = new AtomicLong();

	private volatile String realtimeRefused;

	private volatile long delayNanos;

	private volatile boolean closed;

	private final AtomicLong bytesToTarget = new AtomicLong();

	private final AtomicLong bytesFromTarget = new AtomicLong();

	private final AtomicLong connections = new AtomicLong();

	private final AtomicLong chunks = new AtomicLong();

	private final AtomicLong latenessTotalNanos = new AtomicLong();

	private final AtomicLong latenessMaxNanos = new AtomicLong();

	private final AtomicLongArray latenessMicros = new AtomicLongArray(LATENESS_BUCKETS + 1);

	private LatencyProxy(String targetHost, int targetPort, Duration oneWayDelay, Priority priority)
			throws IOException {
		this.targetHost = targetHost;
		this.targetPort = targetPort;
		this.delayNanos = checked(oneWayDelay);
		this.priority = Objects.requireNonNull(priority, "priority");
		this.server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
		AtomicInteger counter = new AtomicInteger();
		// "proxy-<port>-<n>": short enough for Linux' 15-character thread names (ps, top,
		// /proc)
		this.threads = Executors.newCachedThreadPool(task -> {
			Thread thread = new Thread(() -> {
				schedule();
				task.run();
			}, "proxy-" + server.getLocalPort() + "-" + counter.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler = Executors.newSingleThreadExecutor(task -> {
			Thread thread = new Thread(task, "chrt-proxy-" + server.getLocalPort());
			thread.setDaemon(true);
			return thread;
		});
		this.acceptor = new Thread(this::acceptLoop, "latency-proxy-accept-" + server.getLocalPort());
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	/**
	 * Starts a proxy on a free loopback port that forwards to
	 * {@code targetHost:targetPort}, its threads scheduled as {@link Priority#NORMAL}.
	 * @param oneWayDelay added to each direction; {@link Duration#ZERO} forwards at once
	 */
	public static LatencyProxy start(String targetHost, int targetPort, Duration oneWayDelay) {
		return start(targetHost, targetPort, oneWayDelay, Priority.NORMAL);
	}

	/**
	 * Starts a proxy on a free loopback port that forwards to
	 * {@code targetHost:targetPort}.
	 * @param oneWayDelay added to each direction; {@link Duration#ZERO} forwards at once
	 * @param priority how its threads are scheduled; {@link Priority#REALTIME} falls back
	 * to normal threads where the kernel refuses it ({@link Stats#realtimeThreads()}
	 * tells)
	 */
	public static LatencyProxy start(String targetHost, int targetPort, Duration oneWayDelay, Priority priority) {
		try {
			return new LatencyProxy(targetHost, targetPort, oneWayDelay, priority);
		}
		catch (IOException ex) {
			throw new IllegalStateException("could not open the proxy's port: " + ex.getMessage(), ex);
		}
	}

	public String host() {
		return "127.0.0.1";
	}

	/** The port clients connect to. */
	public int port() {
		return server.getLocalPort();
	}

	/** The delay added in each direction. */
	public Duration delay() {
		return Duration.ofNanos(delayNanos);
	}

	/** Changes the one-way delay for every chunk read from now on. */
	public void setDelay(Duration oneWayDelay) {
		this.delayNanos = checked(oneWayDelay);
	}

	/**
	 * Bytes forwarded and how accurately the delay was kept, since the start or
	 * {@link #resetStats()}.
	 */
	public Stats stats() {
		long count = chunks.get();
		long p50 = 0;
		long p99 = 0;
		long seen = 0;
		for (int i = 0; i <= LATENESS_BUCKETS && count > 0; i++) {
			seen += latenessMicros.get(i);
			if (p50 == 0 && seen >= Math.ceil(count * 0.5)) {
				p50 = i + 1;
			}
			if (seen >= Math.ceil(count * 0.99)) {
				p99 = i + 1;
				break;
			}
		}
		return new Stats(delay(), connections.get(), bytesToTarget.get(), bytesFromTarget.get(), count,
				Duration.ofNanos(count == 0 ? 0 : latenessTotalNanos.get() / count), Duration.ofNanos(p50 * 1000),
				Duration.ofNanos(p99 * 1000), Duration.ofNanos(latenessMaxNanos.get()), priority, realtimeThreads.get(),
				normalThreads.get(), realtimeRefused);
	}

	public void resetStats() {
		bytesToTarget.set(0);
		bytesFromTarget.set(0);
		connections.set(0);
		chunks.set(0);
		latenessTotalNanos.set(0);
		latenessMaxNanos.set(0);
		for (int i = 0; i <= LATENESS_BUCKETS; i++) {
			latenessMicros.set(i, 0);
		}
	}

	/**
	 * What the proxy forwarded and how late it was against the configured delay. Lateness
	 * is the time a chunk went out after it was due (read time + delay); it adds to the
	 * round trip.
	 *
	 * @param delay the one-way delay now configured
	 * @param connections connections accepted
	 * @param bytesToTarget bytes forwarded client → target
	 * @param bytesFromTarget bytes forwarded target → client
	 * @param chunks chunks forwarded (both directions)
	 * @param meanLateness mean lateness per chunk
	 * @param p50Lateness median lateness, rounded up to the microsecond
	 * @param p99Lateness 99th percentile lateness, rounded up to the microsecond
	 * @param maxLateness the worst lateness
	 * @param priority the scheduling asked for
	 * @param realtimeThreads threads started so far that run as {@code SCHED_FIFO}
	 * @param normalThreads threads started so far that run as normal threads
	 * @param realtimeRefused why {@link Priority#REALTIME} was refused, the last time it
	 * was; null if never
	 */
	public record Stats(Duration delay, long connections, long bytesToTarget, long bytesFromTarget, long chunks,
			Duration meanLateness, Duration p50Lateness, Duration p99Lateness, Duration maxLateness, Priority priority,
			long realtimeThreads, long normalThreads, String realtimeRefused) {

		@Override
		public String toString() {
			return String.format(java.util.Locale.ROOT,
					"one-way delay %d µs: %d connections, %,d B to target, %,d B back, %,d chunks, lateness mean %d µs / "
							+ "P50 ≤ %d µs / P99 ≤ %d µs / max %d µs; threads: %d SCHED_FIFO, %d normal%s",
					delay.toNanos() / 1000, connections, bytesToTarget, bytesFromTarget, chunks,
					meanLateness.toNanos() / 1000, p50Lateness.toNanos() / 1000, p99Lateness.toNanos() / 1000,
					maxLateness.toNanos() / 1000, realtimeThreads, normalThreads,
					realtimeRefused == null ? "" : " (real-time refused: " + realtimeRefused + ")");
		}
	}

	@Override
	public void close() {
		closed = true;
		closeQuietly(server);
		sockets.forEach(LatencyProxy::closeQuietly);
		sockets.clear();
		threads.shutdown();
		scheduler.shutdown();
	}

	private void acceptLoop() {
		while (!closed) {
			Socket client;
			try {
				client = server.accept();
			}
			catch (IOException ex) {
				return; // closed
			}
			Socket target = new Socket();
			try {
				client.setTcpNoDelay(true);
				target.setTcpNoDelay(true);
				target.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
			}
			catch (IOException ex) {
				// the target is down: the client sees its connection refused-like close,
				// as it would without us
				closeQuietly(client);
				closeQuietly(target);
				continue;
			}
			connections.incrementAndGet();
			sockets.add(client);
			sockets.add(target);
			AtomicInteger open = new AtomicInteger(2);
			try {
				pump(client, target, bytesToTarget, open);
				pump(target, client, bytesFromTarget, open);
			}
			catch (RejectedExecutionException ex) {
				// closed meanwhile
				closeQuietly(client);
				closeQuietly(target);
			}
		}
	}

	/**
	 * One direction: a reader that timestamps chunks and a writer that forwards each when
	 * due.
	 */
	private void pump(Socket from, Socket to, AtomicLong bytes, AtomicInteger open) {
		BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
		threads.execute(() -> read(from, queue));
		threads.execute(() -> write(from, to, queue, bytes, open));
	}

	/**
	 * Run once by each new pool thread before its first task: if
	 * {@link Priority#REALTIME} is wanted, hands the thread to the {@link #scheduler},
	 * which switches it to {@code SCHED_FIFO} while the thread goes on with its task
	 * (starting {@code chrt} takes milliseconds, more on a busy machine).
	 */
	private void schedule() {
		if (priority != Priority.REALTIME || realtimeRefused != null) {
			normalThreads.incrementAndGet();
			return;
		}
		String threadId = Realtime.currentThreadId();
		AtomicBoolean switched = Realtime.SWITCHED.get();
		try {
			scheduler.execute(() -> {
				String refused = realtimeRefused != null ? realtimeRefused
						: Realtime.switchThread(threadId, REALTIME_PRIORITY);
				if (refused == null) {
					switched.set(true);
					realtimeThreads.incrementAndGet();
				}
				else {
					realtimeRefused = refused;
					normalThreads.incrementAndGet();
				}
			});
		}
		catch (RejectedExecutionException ex) {
			normalThreads.incrementAndGet(); // closed meanwhile
		}
	}

	private void read(Socket from, BlockingQueue<Chunk> queue) {
		byte[] buffer = new byte[64 * 1024];
		try {
			InputStream in = from.getInputStream();
			int n;
			while ((n = in.read(buffer)) >= 0) {
				queue.add(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime() + delayNanos));
			}
		}
		catch (IOException ex) {
			// the connection is gone; the end-of-stream marker below closes the other
			// side when due
		}
		queue.add(Chunk.END);
	}

	private void write(Socket from, Socket to, BlockingQueue<Chunk> queue, AtomicLong bytes, AtomicInteger open) {
		try {
			OutputStream out = to.getOutputStream();
			while (true) {
				Chunk chunk = queue.take();
				if (chunk == Chunk.END) {
					break;
				}
				awaitDue(chunk.due());
				long lateness = System.nanoTime() - chunk.due();
				out.write(chunk.bytes());
				bytes.addAndGet(chunk.bytes().length);
				record(Math.max(0, lateness));
			}
			// this direction ended (a half-close): pass it on, and keep the other
			// direction open until it ends too
			to.shutdownOutput();
			if (open.decrementAndGet() > 0) {
				return;
			}
		}
		catch (IOException | InterruptedException ex) {
			// reset by a peer, or the proxy closed: drop the whole connection
		}
		closeQuietly(from);
		closeQuietly(to);
		sockets.remove(from);
		sockets.remove(to);
	}

	private static void awaitDue(long due) {
		long spin = Realtime.SWITCHED.get().get() ? REALTIME_SPIN_NANOS : SPIN_NANOS;
		long remaining;
		while ((remaining = due - System.nanoTime()) > 0) {
			if (remaining > spin) {
				LockSupport.parkNanos(remaining - spin);
			}
			else {
				Thread.onSpinWait();
			}
		}
	}

	private void record(long latenessNanos) {
		chunks.incrementAndGet();
		latenessTotalNanos.addAndGet(latenessNanos);
		latenessMaxNanos.accumulateAndGet(latenessNanos, Math::max);
		latenessMicros.incrementAndGet((int) Math.min(LATENESS_BUCKETS, latenessNanos / 1000));
	}

	private static long checked(Duration oneWayDelay) {
		if (oneWayDelay == null || oneWayDelay.isNegative()) {
			throw new IllegalArgumentException("oneWayDelay must be zero or positive, but was " + oneWayDelay);
		}
		return oneWayDelay.toNanos();
	}

	private static void closeQuietly(Closeable closeable) {
		try {
			if (closeable instanceof Socket socket && !socket.isClosed()) {
				try {
					socket.shutdownOutput();
				}
				catch (SocketException ignored) {
					// already half-closed or reset
				}
			}
			closeable.close();
		}
		catch (IOException ignored) {
			// closing anyway
		}
	}

	/**
	 * Switching a thread to {@code SCHED_FIFO} (Linux only): by its thread id, with
	 * {@code chrt}.
	 */
	private static final class Realtime {

		/** Whether the current pool thread runs as {@code SCHED_FIFO} yet. */
		static final ThreadLocal<AtomicBoolean> SWITCHED = ThreadLocal.withInitial(AtomicBoolean::new);

		/**
		 * The kernel's id of the calling thread, or null where {@code /proc/thread-self}
		 * does not exist.
		 */
		static String currentThreadId() {
			try {
				// "<pid>/task/<tid>"
				return Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
			}
			catch (IOException | UnsupportedOperationException ex) {
				return null;
			}
		}

		/**
		 * @return null once the thread runs as {@code SCHED_FIFO}, otherwise why not
		 */
		static String switchThread(String threadId, int priority) {
			if (threadId == null) {
				return "no /proc/thread-self (not Linux?)";
			}
			try {
				Process chrt = new ProcessBuilder("chrt", "--fifo", "--pid", Integer.toString(priority), threadId)
					.redirectErrorStream(true)
					.start();
				String output = new String(chrt.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
				if (!chrt.waitFor(5, TimeUnit.SECONDS)) {
					chrt.destroyForcibly();
					return "chrt did not finish within 5 s";
				}
				return chrt.exitValue() == 0 ? null : "chrt exited with " + chrt.exitValue() + ": " + output;
			}
			catch (IOException ex) {
				return "chrt could not run: " + ex.getMessage();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return "interrupted";
			}
		}

	}

	private record Chunk(byte[] bytes, long due) {
		static final Chunk END = new Chunk(new byte[0], 0);

	}

}
