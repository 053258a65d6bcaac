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
package io.sawmill.it.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy on a free loopback port that forwards requests at once and holds every
 * reply back for a fixed delay, in order. Put in front of Redis it widens the time
 * between Redis executing a batch and Sawmill committing it, so a process killed
 * mid-stream is killed mid-batch.
 */
final class ReplyDelayProxy implements AutoCloseable {

	private final ServerSocket server;

	private final InetSocketAddress upstream;

	private final long delayNanos;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private volatile boolean open = true;

	private ReplyDelayProxy(InetSocketAddress upstream, Duration delay) throws IOException {
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.upstream = upstream;
		this.delayNanos = delay.toNanos();
		daemon("proxy-accept-" + port(), this::accept);
	}

	static ReplyDelayProxy start(String host, int port, Duration delay) {
		try {
			return new ReplyDelayProxy(new InetSocketAddress(host, port), delay);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	int port() {
		return server.getLocalPort();
	}

	private void accept() {
		while (open) {
			try {
				Socket client = server.accept();
				Socket redis = new Socket();
				redis.connect(upstream, 5_000);
				client.setTcpNoDelay(true);
				redis.setTcpNoDelay(true);
				sockets.add(client);
				sockets.add(redis);
				LinkedBlockingQueue<Chunk> replies = new LinkedBlockingQueue<>();
				daemon("proxy-requests", () -> copy(client, redis));
				daemon("proxy-replies-in", () -> queue(redis, client, replies));
				daemon("proxy-replies-out", () -> deliver(replies, client, redis));
			}
			catch (IOException ex) {
				if (open) {
					System.out.println("proxy: " + ex);
				}
			}
		}
	}

	private static void copy(Socket from, Socket to) {
		byte[] buffer = new byte[64 * 1024];
		try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
			int n;
			while ((n = in.read(buffer)) >= 0) {
				out.write(buffer, 0, n);
				out.flush();
			}
		}
		catch (IOException closed) {
			// either side went away
		}
		finally {
			closeQuietly(from);
			closeQuietly(to);
		}
	}

	private void queue(Socket redis, Socket client, LinkedBlockingQueue<Chunk> replies) {
		byte[] buffer = new byte[64 * 1024];
		try (InputStream in = redis.getInputStream()) {
			int n;
			while ((n = in.read(buffer)) >= 0) {
				replies.add(new Chunk(System.nanoTime() + delayNanos, Arrays.copyOf(buffer, n)));
			}
		}
		catch (IOException closed) {
			// either side went away
		}
		finally {
			replies.add(Chunk.END);
		}
	}

	private static void deliver(LinkedBlockingQueue<Chunk> replies, Socket client, Socket redis) {
		try (OutputStream out = client.getOutputStream()) {
			while (true) {
				Chunk chunk = replies.take();
				if (chunk == Chunk.END) {
					break;
				}
				long wait = chunk.due() - System.nanoTime();
				if (wait > 0) {
					TimeUnit.NANOSECONDS.sleep(wait);
				}
				out.write(chunk.bytes());
				out.flush();
			}
		}
		catch (IOException | InterruptedException closed) {
			// either side went away
		}
		finally {
			closeQuietly(client);
			closeQuietly(redis);
		}
	}

	private static void daemon(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ignored) {
			// closing anyway
		}
	}

	@Override
	public void close() {
		open = false;
		try {
			server.close();
		}
		catch (IOException ignored) {
			// closing anyway
		}
		sockets.forEach(ReplyDelayProxy::closeQuietly);
	}

	private record Chunk(long due, byte[] bytes) {
		static final Chunk END = new Chunk(0, new byte[0]);

	}

}
