package io.sawmill.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on loopback that delays every byte by a fixed one-way delay in each direction, so a
 * client talking to a local server through it sees a round trip of {@code 2 × oneWayDelay} plus the
 * loopback time. It stands in for network latency where kernel netem is not available.
 * <p>
 * Each direction of each connection has a reader thread, which timestamps every chunk it reads, and a
 * writer thread, which forwards the chunks in the order they were read, each one no earlier than its
 * read time plus the delay. Bytes are therefore never reordered, and bandwidth is not limited: the
 * proxy models propagation delay, not a slow link. The writer parks until shortly before a chunk is
 * due and spins for the rest, so short delays (50 µs) are kept too; how late each chunk actually went
 * out is recorded and reported by {@link #stats()}.
 * <p>
 * {@link #setDelay(Duration)} changes the delay at run time for chunks read from then on (chunks
 * already queued keep theirs; order is still preserved). {@link #close()} closes the listening socket
 * and every proxied connection. Thread-safe.
 */
public final class LatencyProxy implements AutoCloseable {

	/** Parking wakes up this much late on Linux (timer slack); the remainder is spun. */
	private static final long SPIN_NANOS = 80_000;

	/** Lateness histogram: one-microsecond buckets up to this many; later chunks land in the last one. */
	private static final int LATENESS_BUCKETS = 10_000;

	private final String targetHost;
	private final int targetPort;
	private final ServerSocket server;
	private final Thread acceptor;
	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
	private volatile long delayNanos;
	private volatile boolean closed;

	private final AtomicLong bytesToTarget = new AtomicLong();
	private final AtomicLong bytesFromTarget = new AtomicLong();
	private final AtomicLong connections = new AtomicLong();
	private final AtomicLong chunks = new AtomicLong();
	private final AtomicLong latenessTotalNanos = new AtomicLong();
	private final AtomicLong latenessMaxNanos = new AtomicLong();
	private final AtomicLongArray latenessMicros = new AtomicLongArray(LATENESS_BUCKETS + 1);

	private LatencyProxy(String targetHost, int targetPort, Duration oneWayDelay) throws IOException {
		this.targetHost = targetHost;
		this.targetPort = targetPort;
		this.delayNanos = checked(oneWayDelay);
		this.server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
		this.acceptor = new Thread(this::acceptLoop, "latency-proxy-accept-" + server.getLocalPort());
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	/**
	 * Starts a proxy on a free loopback port that forwards to {@code targetHost:targetPort}.
	 * @param oneWayDelay added to each direction; {@link Duration#ZERO} forwards at once
	 */
	public static LatencyProxy start(String targetHost, int targetPort, Duration oneWayDelay) {
		try {
			return new LatencyProxy(targetHost, targetPort, oneWayDelay);
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

	/** Bytes forwarded and how accurately the delay was kept, since the start or {@link #resetStats()}. */
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
				Duration.ofNanos(p99 * 1000), Duration.ofNanos(latenessMaxNanos.get()));
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
	 * What the proxy forwarded and how late it was against the configured delay. Lateness is the time
	 * a chunk went out after it was due (read time + delay); it adds to the round trip.
	 * @param delay the one-way delay now configured
	 * @param connections connections accepted
	 * @param bytesToTarget bytes forwarded client → target
	 * @param bytesFromTarget bytes forwarded target → client
	 * @param chunks chunks forwarded (both directions)
	 * @param meanLateness mean lateness per chunk
	 * @param p50Lateness median lateness, rounded up to the microsecond
	 * @param p99Lateness 99th percentile lateness, rounded up to the microsecond
	 * @param maxLateness the worst lateness
	 */
	public record Stats(Duration delay, long connections, long bytesToTarget, long bytesFromTarget, long chunks,
			Duration meanLateness, Duration p50Lateness, Duration p99Lateness, Duration maxLateness) {

		@Override
		public String toString() {
			return String.format(java.util.Locale.ROOT,
					"one-way delay %d µs: %d connections, %,d B to target, %,d B back, %,d chunks, lateness mean %d µs / "
							+ "P50 ≤ %d µs / P99 ≤ %d µs / max %d µs",
					delay.toNanos() / 1000, connections, bytesToTarget, bytesFromTarget, chunks,
					meanLateness.toNanos() / 1000, p50Lateness.toNanos() / 1000, p99Lateness.toNanos() / 1000,
					maxLateness.toNanos() / 1000);
		}
	}

	@Override
	public void close() {
		closed = true;
		closeQuietly(server);
		sockets.forEach(LatencyProxy::closeQuietly);
		sockets.clear();
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
				// the target is down: the client sees its connection refused-like close, as it would without us
				closeQuietly(client);
				closeQuietly(target);
				continue;
			}
			connections.incrementAndGet();
			sockets.add(client);
			sockets.add(target);
			String name = client.getPort() + "";
			java.util.concurrent.atomic.AtomicInteger open = new java.util.concurrent.atomic.AtomicInteger(2);
			pump(client, target, bytesToTarget, open, "latency-proxy-up-" + name);
			pump(target, client, bytesFromTarget, open, "latency-proxy-down-" + name);
		}
	}

	/** One direction: a reader that timestamps chunks and a writer that forwards each when due. */
	private void pump(Socket from, Socket to, AtomicLong bytes, java.util.concurrent.atomic.AtomicInteger open,
			String name) {
		BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
		Thread reader = new Thread(() -> read(from, queue), name + "-read");
		Thread writer = new Thread(() -> write(from, to, queue, bytes, open), name + "-write");
		reader.setDaemon(true);
		writer.setDaemon(true);
		reader.start();
		writer.start();
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
			// the connection is gone; the end-of-stream marker below closes the other side when due
		}
		queue.add(Chunk.END);
	}

	private void write(Socket from, Socket to, BlockingQueue<Chunk> queue, AtomicLong bytes,
			java.util.concurrent.atomic.AtomicInteger open) {
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
			// this direction ended (a half-close): pass it on, and keep the other direction open until it ends too
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
		long remaining;
		while ((remaining = due - System.nanoTime()) > 0) {
			if (remaining > SPIN_NANOS) {
				LockSupport.parkNanos(remaining - SPIN_NANOS);
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

	private static void closeQuietly(java.io.Closeable closeable) {
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

	private record Chunk(byte[] bytes, long due) {
		static final Chunk END = new Chunk(new byte[0], 0);
	}
}
