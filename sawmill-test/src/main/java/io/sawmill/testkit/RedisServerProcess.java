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

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} process on a free loopback port, for tests, benchmarks and
 * the demo. Persists nothing; {@link #kill()} and {@link #start()} simulate a crash and a
 * restart on the same port. The binary is {@code $SAWMILL_REDIS_SERVER}, else
 * {@code redis-server} on the PATH.
 */
public final class RedisServerProcess implements AutoCloseable {

	private final Path binary;

	private final int port;

	private final List<String> extraArgs;

	private final Path dir;

	private Process process;

	private RedisServerProcess(Path binary, int port, List<String> extraArgs) throws IOException {
		this.binary = binary;
		this.port = port;
		this.extraArgs = List.copyOf(extraArgs);
		this.dir = Files.createTempDirectory("sawmill-redis-");
	}

	/**
	 * Starts a server on a free port with the given extra arguments (e.g.
	 * {@code --requirepass s3cret}).
	 */
	public static RedisServerProcess startNew(String... extraArgs) {
		Path binary = locate().orElseThrow(() -> new IllegalStateException(
				"redis-server not found: install it (apt-get install -y redis-server) or set SAWMILL_REDIS_SERVER"));
		return startNew(binary, extraArgs);
	}

	/** Starts the given redis-server binary on a free port. */
	public static RedisServerProcess startNew(Path binary, String... extraArgs) {
		try {
			RedisServerProcess redis = new RedisServerProcess(binary, freePort(), List.of(extraArgs));
			redis.start();
			return redis;
		}
		catch (IOException ex) {
			throw new IllegalStateException("could not start " + binary + ": " + ex.getMessage(), ex);
		}
	}

	/** The redis-server binary this machine has, if any. */
	public static Optional<Path> locate() {
		String configured = System.getenv("SAWMILL_REDIS_SERVER");
		if (configured != null && Files.isExecutable(Path.of(configured))) {
			return Optional.of(Path.of(configured));
		}
		for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			Path candidate = Path.of(dir, "redis-server");
			if (Files.isExecutable(candidate)) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
	}

	public static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** (Re)starts the server on its port and waits until it answers PING. */
	public synchronized void start() {
		if (process != null && process.isAlive()) {
			return;
		}
		List<String> command = new ArrayList<>(List.of(binary.toString(), "--port", Integer.toString(port), "--bind",
				"127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--protected-mode", "no"));
		command.addAll(extraArgs);
		try {
			process = ChildProcesses.stopOnExit(new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(dir.resolve("redis.log").toFile())
				.start());
		}
		catch (IOException ex) {
			throw new IllegalStateException("could not start " + command + ": " + ex.getMessage(), ex);
		}
		awaitListening(Duration.ofSeconds(20));
	}

	private void awaitListening(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (!process.isAlive()) {
				throw new IllegalStateException("redis-server exited with " + process.exitValue() + ": " + log());
			}
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
				return;
			}
			catch (IOException notYet) {
				sleep(Duration.ofMillis(20));
			}
		}
		throw new IllegalStateException("redis-server did not listen on " + port + " within " + timeout + ": " + log());
	}

	/**
	 * Sends a command over a raw connection and returns the first reply line (for
	 * plain-text servers).
	 */
	public String command(String... args) {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			OutputStream out = socket.getOutputStream();
			out.write(request(args));
			out.flush();
			InputStream in = socket.getInputStream();
			StringBuilder line = new StringBuilder();
			int c;
			while ((c = in.read()) >= 0 && c != '\n') {
				line.append((char) c);
			}
			return line.toString().trim();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** SIGKILL: the server dies at once, as in a crash; nothing is persisted. */
	public synchronized void kill() {
		if (process != null) {
			process.destroyForcibly();
			waitFor();
		}
	}

	/** SIGTERM and wait. */
	public synchronized void stop() {
		if (process != null) {
			process.destroy();
			waitFor();
		}
	}

	private void waitFor() {
		try {
			process.waitFor();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	public boolean isRunning() {
		return process != null && process.isAlive();
	}

	public String host() {
		return "127.0.0.1";
	}

	public int port() {
		return port;
	}

	private String log() {
		try {
			return Files.readString(dir.resolve("redis.log"));
		}
		catch (IOException ex) {
			return "(no log)";
		}
	}

	static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** A command as a RESP array of bulk strings. */
	static byte[] request(String... args) {
		StringBuilder request = new StringBuilder("*" + args.length + "\r\n");
		for (String arg : args) {
			request.append('$')
				.append(arg.getBytes(StandardCharsets.UTF_8).length)
				.append("\r\n")
				.append(arg)
				.append("\r\n");
		}
		return request.toString().getBytes(StandardCharsets.UTF_8);
	}

	/** Kills the server and deletes its directory (its log with it). */
	@Override
	public void close() {
		kill();
		deleteRecursively(dir);
	}

	/**
	 * A leftover temporary directory is not worth failing a test for: what cannot be
	 * deleted stays.
	 */
	static void deleteRecursively(Path root) {
		try (Stream<Path> files = Files.walk(root)) {
			files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
		}
		catch (IOException ex) {
			// as above
		}
	}

}
