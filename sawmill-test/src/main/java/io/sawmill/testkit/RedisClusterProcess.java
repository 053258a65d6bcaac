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
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A real Redis Cluster for tests: three masters (with replicas if asked), each a
 * {@code redis-server} process on a free loopback port, joined with
 * {@code redis-cli --cluster create}. Persists nothing; every node works in a directory
 * of its own under one temporary directory, which {@link #close()} deletes after killing
 * the nodes. The binaries are those {@link RedisServerProcess#locate()} finds, and the
 * {@code redis-cli} next to it (else on the PATH).
 */
public final class RedisClusterProcess implements AutoCloseable {

	private static final int MASTERS = 3;

	/**
	 * The default Redis port and its cluster bus port, used by a Redis this machine may
	 * run anyway.
	 */
	private static final Set<Integer> RESERVED_PORTS = Set.of(6379, 16379);

	private static final Duration NODE_START_TIMEOUT = Duration.ofSeconds(20);

	private static final Duration CREATE_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration CLUSTER_OK_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(30);

	private final Path binary;

	private final int replicasPerMaster;

	private final Path dir;

	private final List<Node> nodes = new ArrayList<>();

	private RedisClusterProcess(Path binary, int replicasPerMaster) throws IOException {
		this.binary = binary;
		this.replicasPerMaster = replicasPerMaster;
		this.dir = Files.createTempDirectory("sawmill-redis-cluster-");
	}

	/**
	 * Starts three masters, forms the cluster and waits until every node reports
	 * {@code cluster_state:ok}.
	 */
	public static RedisClusterProcess startNew() {
		return startNew(0);
	}

	/**
	 * Starts three masters with {@code replicasPerMaster} replicas each (so that a
	 * replica can take over a master that is {@link #kill(int) killed}), forms the
	 * cluster and waits until it is ok.
	 */
	public static RedisClusterProcess startNew(int replicasPerMaster) {
		Path binary = RedisServerProcess.locate()
			.orElseThrow(() -> new IllegalStateException(
					"redis-server not found: install it (apt-get install -y redis-server) or set SAWMILL_REDIS_SERVER"));
		Path cli = locateCli(binary).orElseThrow(() -> new IllegalStateException("redis-cli not found next to " + binary
				+ " nor on the PATH: install it (apt-get install -y redis-tools)"));
		RedisClusterProcess cluster;
		try {
			cluster = new RedisClusterProcess(binary, replicasPerMaster);
		}
		catch (IOException ex) {
			throw new IllegalStateException("could not create a temporary directory: " + ex.getMessage(), ex);
		}
		try {
			cluster.startNodes();
			cluster.create(cli);
			cluster.awaitClusterOk(CLUSTER_OK_TIMEOUT);
			return cluster;
		}
		catch (RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	private static Optional<Path> locateCli(Path server) {
		Path sibling = server.resolveSibling("redis-cli");
		if (Files.isExecutable(sibling)) {
			return Optional.of(sibling);
		}
		for (String pathDir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			Path candidate = Path.of(pathDir, "redis-cli");
			if (Files.isExecutable(candidate)) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
	}

	private void startNodes() {
		Set<Integer> taken = new HashSet<>(RESERVED_PORTS);
		for (int i = 0; i < MASTERS * (1 + replicasPerMaster); i++) {
			// The cluster bus gets a free port of its own (cluster-port, Redis 7): the
			// default, port + 10000,
			// is out of range for a port from the upper half of the ephemeral range.
			Node node = new Node(freePort(taken), freePort(taken));
			nodes.add(node);
			node.start();
		}
	}

	private static int freePort(Set<Integer> taken) {
		for (int attempt = 0; attempt < 100; attempt++) {
			int port = RedisServerProcess.freePort();
			if (taken.add(port)) {
				return port;
			}
		}
		throw new IllegalStateException("no free port found");
	}

	private void create(Path cli) {
		List<String> command = new ArrayList<>(List.of(cli.toString(), "--cluster", "create"));
		nodes.forEach(node -> command.add(host() + ":" + node.port));
		command.addAll(List.of("--cluster-replicas", Integer.toString(replicasPerMaster), "--cluster-yes"));
		Path log = dir.resolve("cluster-create.log");
		Process create;
		try {
			create = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("could not run " + command + ": " + ex.getMessage(), ex);
		}
		boolean exited;
		try {
			exited = create.waitFor(CREATE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			create.destroyForcibly();
			throw new IllegalStateException("interrupted while forming the cluster", ex);
		}
		if (!exited) {
			create.destroyForcibly();
			throw new IllegalStateException(
					"redis-cli --cluster create did not finish within " + CREATE_TIMEOUT + ": " + read(log));
		}
		if (create.exitValue() != 0) {
			throw new IllegalStateException(
					"redis-cli --cluster create exited with " + create.exitValue() + ": " + read(log));
		}
	}

	private void awaitClusterOk(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		String last = "";
		while (System.nanoTime() < deadline) {
			boolean allOk = true;
			for (Node node : nodes) {
				if (!node.process.isAlive()) {
					throw new IllegalStateException("redis-server on " + node.port + " exited with "
							+ node.process.exitValue() + ": " + read(node.log()));
				}
				String info;
				try {
					info = command(node.port, "CLUSTER", "INFO");
				}
				catch (IllegalStateException notYet) {
					info = notYet.getMessage();
				}
				if (!(info.contains("cluster_state:ok") && info.contains("cluster_slots_ok:16384")
						&& info.contains("cluster_known_nodes:" + nodes.size()) && synced(node))) {
					allOk = false;
					last = "node " + node.port + ": " + info;
					break;
				}
			}
			if (allOk) {
				return;
			}
			RedisServerProcess.sleep(Duration.ofMillis(50));
		}
		throw new IllegalStateException("the Redis Cluster on " + ports() + " did not report cluster_state:ok within "
				+ timeout + "; last CLUSTER INFO of " + last);
	}

	/**
	 * Whether the node is a master, or a replica that has synchronised with its master
	 * (so it can take over).
	 */
	private boolean synced(Node node) {
		String replication = command(node.port, "INFO", "replication");
		return replication.contains("role:master") || replication.contains("master_link_status:up");
	}

	/**
	 * Sends a command to one node over a raw connection and returns its reply as text: a
	 * status, an error (prefixed with {@code -}), an integer or a bulk string. Other
	 * reply types are not supported.
	 */
	public String command(int port, String... args) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host(), port), 1_000);
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

	public String host() {
		return "127.0.0.1";
	}

	/**
	 * The client ports of the nodes (the masters, and their replicas if any), in the
	 * order they were started.
	 */
	public List<Integer> ports() {
		return nodes.stream().map(node -> node.port).toList();
	}

	/** SIGKILLs the node on {@code port}: it dies at once, as in a crash. */
	public void kill(int port) {
		node(port).kill();
	}

	/**
	 * Starts the node on {@code port} again after it was {@link #kill killed}, empty
	 * (nothing is persisted) but with its cluster configuration: it rejoins the cluster,
	 * as the replica of the node that took its slots over.
	 */
	public void restart(int port) {
		node(port).start();
	}

	/**
	 * The ports of the nodes that are masters now, by their own {@code INFO replication}.
	 */
	public List<Integer> masters() {
		return nodes.stream()
			.filter(node -> node.process.isAlive())
			.map(node -> node.port)
			.filter(port -> role(port).contains("role:master"))
			.toList();
	}

	/**
	 * The port of a live replica of the master on {@code masterPort}, by the replicas'
	 * own {@code INFO replication}.
	 */
	public int replicaOf(int masterPort) {
		return nodes.stream().filter(node -> node.process.isAlive()).map(node -> node.port).filter(port -> {
			String role = role(port);
			return role.contains("role:slave") && role.contains("master_port:" + masterPort + "\r");
		})
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("no replica of " + masterPort + " among " + ports()));
	}

	private String role(int port) {
		try {
			return command(port, "INFO", "replication");
		}
		catch (IllegalStateException unreachable) {
			return "";
		}
	}

	/**
	 * A planned failover: {@code CLUSTER FAILOVER} on the replica on {@code replicaPort},
	 * which waits for its master to stop taking writes, catches up and takes its slots
	 * over; returns once the replica reports itself master.
	 */
	public void failover(int replicaPort) {
		String reply = command(replicaPort, "CLUSTER", "FAILOVER");
		if (!"OK".equals(reply)) {
			throw new IllegalStateException("CLUSTER FAILOVER on " + replicaPort + " answered " + reply);
		}
		awaitMaster(replicaPort, FAILOVER_TIMEOUT);
	}

	/**
	 * Waits until the node on {@code port} reports itself master, as a replica does once
	 * it took over.
	 */
	public void awaitMaster(int port, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!role(port).contains("role:master")) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("the node on " + port + " did not become master within " + timeout);
			}
			RedisServerProcess.sleep(Duration.ofMillis(50));
		}
	}

	/**
	 * Waits until every live node sees every master that serves slots with a connected
	 * replica that is not failed, and every replica has synced with its master: the state
	 * a failover, or a killed node's restart, leaves the cluster in once gossip has
	 * settled. A client that reads the topology before then may be told of a master
	 * without a replica.
	 */
	public void awaitReplicated(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		String last = "";
		while (System.nanoTime() < deadline) {
			last = unreplicated();
			if (last.isEmpty()) {
				return;
			}
			RedisServerProcess.sleep(Duration.ofMillis(100));
		}
		throw new IllegalStateException(
				"the Redis Cluster on " + ports() + " was not fully replicated within " + timeout + ": " + last);
	}

	/**
	 * What keeps the cluster from being fully replicated, by some node's view; empty when
	 * nothing does.
	 */
	private String unreplicated() {
		for (Node node : nodes) {
			if (!node.process.isAlive()) {
				continue;
			}
			String view;
			try {
				if (!synced(node)) {
					return "node " + node.port + " has not synced with its master";
				}
				view = command(node.port, "CLUSTER", "NODES");
			}
			catch (IllegalStateException unreachable) {
				return unreachable.getMessage();
			}
			List<String[]> lines = view.lines()
				.map(line -> line.split(" "))
				.filter(fields -> fields.length >= 8)
				.toList();
			for (String[] master : lines) {
				boolean servesSlots = master[2].contains("master") && !master[2].contains("fail") && master.length > 8;
				boolean replicated = lines.stream()
					.anyMatch(replica -> replica[2].contains("slave") && !replica[2].contains("fail")
							&& replica[3].equals(master[0]) && replica[7].equals("connected"));
				if (servesSlots && !replicated) {
					return "node " + node.port + " sees master " + master[1] + " without a replica: " + view;
				}
			}
		}
		return "";
	}

	/**
	 * SIGSTOPs the node on {@code port}: it keeps its connections open but answers
	 * nothing, as a frozen host.
	 */
	public void pause(int port) {
		signal(port, "STOP");
	}

	/**
	 * SIGCONTs a node {@link #pause paused}: it goes on with whatever it had read
	 * meanwhile.
	 */
	public void resume(int port) {
		signal(port, "CONT");
	}

	private void signal(int port, String signal) {
		Node node = node(port);
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(node.process.pid())).start();
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + node.process.pid() + " failed");
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

	private Node node(int port) {
		return nodes.stream()
			.filter(node -> node.port == port)
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("no node on port " + port + " in " + ports()));
	}

	/** Kills every node and deletes their directories. */
	@Override
	public void close() {
		nodes.forEach(Node::kill);
		RedisServerProcess.deleteRecursively(dir);
	}

	private static String read(Path log) {
		try {
			return Files.readString(log);
		}
		catch (IOException ex) {
			return "(no log)";
		}
	}

	/** One master: a redis-server process in a working directory of its own. */
	private final class Node {

		private final int port;

		private final int busPort;

		private final Path workDir;

		private Process process;

		Node(int port, int busPort) {
			this.port = port;
			this.busPort = busPort;
			this.workDir = dir.resolve("node-" + port);
		}

		void start() {
			List<String> command = List.of(binary.toString(), "--port", Integer.toString(port), "--bind", host(),
					"--save", "", "--appendonly", "no", "--dir", workDir.toString(), "--protected-mode", "no",
					"--cluster-enabled", "yes", "--cluster-config-file",
					dir.resolve("nodes-" + port + ".conf").toString(), "--cluster-node-timeout", "5000",
					"--cluster-port", Integer.toString(busPort), "--enable-debug-command", "local");
			try {
				Files.createDirectories(workDir);
				process = ChildProcesses.stopOnExit(
						new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log().toFile()).start());
			}
			catch (IOException ex) {
				throw new IllegalStateException("could not start " + command + ": " + ex.getMessage(), ex);
			}
			awaitListening(NODE_START_TIMEOUT);
		}

		private void awaitListening(Duration timeout) {
			long deadline = System.nanoTime() + timeout.toNanos();
			while (System.nanoTime() < deadline) {
				if (!process.isAlive()) {
					throw new IllegalStateException(
							"redis-server exited with " + process.exitValue() + ": " + read(log()));
				}
				try (Socket socket = new Socket()) {
					socket.connect(new InetSocketAddress(host(), port), 200);
					return;
				}
				catch (IOException notYet) {
					RedisServerProcess.sleep(Duration.ofMillis(20));
				}
			}
			throw new IllegalStateException(
					"redis-server did not listen on " + port + " within " + timeout + ": " + read(log()));
		}

		Path log() {
			return dir.resolve("redis-" + port + ".log");
		}

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

	}

}
