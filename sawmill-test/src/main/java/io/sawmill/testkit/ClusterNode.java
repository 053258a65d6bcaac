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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One node of a {@link RedisClusterProcess}: a {@code redis-server} process with cluster
 * mode on, in a working directory of its own, and the raw connection the cluster talks to
 * it over. Its cluster configuration file lives outside that directory, so a node
 * {@link #kill() killed} and {@link #start() started} again rejoins the cluster.
 */
final class ClusterNode {

	static final String HOST = "127.0.0.1";

	private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

	private final Path binary;

	private final Path clusterDir;

	private final int port;

	private final int busPort;

	private final Path workDir;

	private Process process;

	ClusterNode(Path binary, Path clusterDir, int port, int busPort) {
		this.binary = binary;
		this.clusterDir = clusterDir;
		this.port = port;
		this.busPort = busPort;
		this.workDir = clusterDir.resolve("node-" + port);
	}

	int port() {
		return port;
	}

	/** Starts the process and waits until it listens. */
	void start() {
		List<String> command = List.of(binary.toString(), "--port", Integer.toString(port), "--bind", HOST, "--save",
				"", "--appendonly", "no", "--dir", workDir.toString(), "--protected-mode", "no", "--cluster-enabled",
				"yes", "--cluster-config-file", clusterDir.resolve("nodes-" + port + ".conf").toString(),
				"--cluster-node-timeout", "5000", "--cluster-port", Integer.toString(busPort), "--enable-debug-command",
				"local");
		try {
			Files.createDirectories(workDir);
			process = ChildProcesses.stopOnExit(
					new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log().toFile()).start());
		}
		catch (IOException ex) {
			throw new IllegalStateException("could not start " + command + ": " + ex.getMessage(), ex);
		}
		awaitListening(START_TIMEOUT);
	}

	private void awaitListening(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (!process.isAlive()) {
				throw new IllegalStateException("redis-server exited with " + process.exitValue() + ": " + read(log()));
			}
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(HOST, port), 200);
				return;
			}
			catch (IOException notYet) {
				RedisServerProcess.sleep(Duration.ofMillis(20));
			}
		}
		throw new IllegalStateException(
				"redis-server did not listen on " + port + " within " + timeout + ": " + read(log()));
	}

	boolean isAlive() {
		return process != null && process.isAlive();
	}

	/**
	 * Fails, with the node's log, if its process exited.
	 */
	void checkAlive() {
		if (!process.isAlive()) {
			throw new IllegalStateException(
					"redis-server on " + port + " exited with " + process.exitValue() + ": " + read(log()));
		}
	}

	/** SIGKILL, and wait for the process to be gone. */
	void kill() {
		if (process == null) {
			return;
		}
		process.destroyForcibly();
		try {
			process.waitFor(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Sends the process a signal by name ({@code STOP}, {@code CONT}). */
	void signal(String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("could not run kill: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while signalling " + port, ex);
		}
	}

	/** {@link #command(int, String...)} on this node. */
	String command(String... args) {
		return command(port, args);
	}

	/**
	 * The {@code INFO replication} of the node on {@code port}, or empty when it does not
	 * answer (killed, paused).
	 */
	static String role(int port) {
		try {
			return command(port, "INFO", "replication");
		}
		catch (IllegalStateException unreachable) {
			return "";
		}
	}

	/**
	 * Whether the node is a master, or a replica that has synchronised with its master
	 * (so it can take over).
	 */
	boolean synced() {
		String replication = command("INFO", "replication");
		return replication.contains("role:master") || replication.contains("master_link_status:up");
	}

	/**
	 * Sends a command to a node over a raw connection and returns its reply as text: a
	 * status, an error (prefixed with {@code -}), an integer or a bulk string. Other
	 * reply types are not supported.
	 */
	static String command(int port, String... args) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(HOST, port), 1_000);
			socket.setSoTimeout(2_000);
			OutputStream out = socket.getOutputStream();
			out.write(RedisServerProcess.request(args));
			out.flush();
			InputStream in = socket.getInputStream();
			int type = in.read();
			String line = readLine(in);
			return switch (type) {
				case '+', ':' -> line;
				case '-' -> "-" + line;
				case '$' -> {
					int length = Integer.parseInt(line);
					yield length < 0 ? "" : new String(in.readNBytes(length), StandardCharsets.UTF_8);
				}
				default ->
					throw new IllegalStateException("unsupported reply from " + port + ": " + (char) type + line);
			};
		}
		catch (IOException ex) {
			throw new IllegalStateException("no reply from " + port + ": " + ex, ex);
		}
	}

	private static String readLine(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int c;
		while ((c = in.read()) >= 0 && c != '\n') {
			line.write(c);
		}
		return line.toString(StandardCharsets.UTF_8).trim();
	}

	private Path log() {
		return clusterDir.resolve("redis-" + port + ".log");
	}

	static String read(Path log) {
		try {
			return Files.readString(log);
		}
		catch (IOException ex) {
			return "(no log)";
		}
	}

}
