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

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

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

	private final String targetHost;

	private final int targetPort;

	private final ServerSocket server;

	private final Thread acceptor;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final Priority priority;

	private final ProxyThreads threads;

	private final ProxyCounters counters = new ProxyCounters();

	private volatile long delayNanos;

	private volatile boolean closed;

	private LatencyProxy(String targetHost, int targetPort, Duration oneWayDelay, Priority priority)
			throws IOException {
		this.targetHost = targetHost;
		this.targetPort = targetPort;
		this.delayNanos = checked(oneWayDelay);
		this.priority = Objects.requireNonNull(priority, "priority");
		this.server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
		this.threads = new ProxyThreads(server.getLocalPort(), priority == Priority.REALTIME);
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
		ProxyCounters.Counts counts = counters.counts();
		return new Stats(delay(), counts.connections(), counts.bytesToTarget(), counts.bytesFromTarget(),
				counts.chunks(), counts.meanLateness(), counts.p50Lateness(), counts.p99Lateness(),
				counts.maxLateness(), priority, threads.realtimeThreads(), threads.normalThreads(),
				threads.realtimeRefused());
	}

	public void resetStats() {
		counters.reset();
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
		ProxiedConnection.closeQuietly(server);
		sockets.forEach(ProxiedConnection::closeQuietly);
		sockets.clear();
		threads.shutdown();
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
				ProxiedConnection.closeQuietly(client);
				ProxiedConnection.closeQuietly(target);
				continue;
			}
			new ProxiedConnection(client, target, threads, counters, sockets, () -> delayNanos).start();
		}
	}

	private static long checked(Duration oneWayDelay) {
		if (oneWayDelay == null || oneWayDelay.isNegative()) {
			throw new IllegalArgumentException("oneWayDelay must be zero or positive, but was " + oneWayDelay);
		}
		return oneWayDelay.toNanos();
	}

}
