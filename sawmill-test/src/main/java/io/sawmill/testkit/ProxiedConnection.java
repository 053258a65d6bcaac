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
import java.net.Socket;
import java.net.SocketException;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * One client's connection through a {@link LatencyProxy} to its target. Each direction
 * has a reader, which timestamps every chunk it reads, and a writer, which forwards the
 * chunks in the order they were read, each no earlier than its read time plus the delay
 * then configured. A half-close is passed on when due, and the other direction stays open
 * until it ends too; a reset drops the whole connection.
 */
final class ProxiedConnection {

	private final Socket client;

	private final Socket target;

	private final ProxyThreads threads;

	private final ProxyCounters counters;

	/** The proxy's open sockets, which its {@code close()} closes. */
	private final Set<Socket> sockets;

	private final LongSupplier delayNanos;

	/** Directions still open. */
	private final AtomicInteger open = new AtomicInteger(2);

	ProxiedConnection(Socket client, Socket target, ProxyThreads threads, ProxyCounters counters, Set<Socket> sockets,
			LongSupplier delayNanos) {
		this.client = client;
		this.target = target;
		this.threads = threads;
		this.counters = counters;
		this.sockets = sockets;
		this.delayNanos = delayNanos;
	}

	/** Starts forwarding both directions on the proxy's threads. */
	void start() {
		counters.connected();
		sockets.add(client);
		sockets.add(target);
		try {
			pump(client, target, counters.bytesToTarget());
			pump(target, client, counters.bytesFromTarget());
		}
		catch (RejectedExecutionException ex) {
			// closed meanwhile
			closeQuietly(client);
			closeQuietly(target);
		}
	}

	/**
	 * One direction: a reader that timestamps chunks and a writer that forwards each when
	 * due.
	 */
	private void pump(Socket from, Socket to, AtomicLong bytes) {
		BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
		threads.execute(() -> read(from, queue));
		threads.execute(() -> write(from, to, queue, bytes));
	}

	private void read(Socket from, BlockingQueue<Chunk> queue) {
		byte[] buffer = new byte[64 * 1024];
		try {
			InputStream in = from.getInputStream();
			int n;
			while ((n = in.read(buffer)) >= 0) {
				queue.add(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime() + delayNanos.getAsLong()));
			}
		}
		catch (IOException ex) {
			// the connection is gone; the end-of-stream marker below closes the other
			// side when due
		}
		queue.add(Chunk.END);
	}

	private void write(Socket from, Socket to, BlockingQueue<Chunk> queue, AtomicLong bytes) {
		try {
			OutputStream out = to.getOutputStream();
			while (true) {
				Chunk chunk = queue.take();
				if (chunk == Chunk.END) {
					break;
				}
				ProxyThreads.awaitDue(chunk.due());
				long lateness = System.nanoTime() - chunk.due();
				out.write(chunk.bytes());
				bytes.addAndGet(chunk.bytes().length);
				counters.record(Math.max(0, lateness));
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

	static void closeQuietly(Closeable closeable) {
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
