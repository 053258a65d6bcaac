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
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;

/**
 * A real Sentinel-managed Redis for tests: two {@code redis-server} processes, a master
 * and its replica, watched by one Sentinel ({@code redis-server --sentinel}, quorum 1),
 * all on free loopback ports. {@link #failover()} has the Sentinel promote the replica,
 * as a managed Redis does during maintenance, and returns once the old master replicates
 * from the new one. Persists nothing; {@link #close()} kills the three processes and
 * deletes their directories.
 */
public final class RedisSentinelProcess implements AutoCloseable {

	/**
	 * The master's name in the Sentinel, what {@code spring.data.redis.sentinel.master}
	 * names.
	 */
	public static final String MASTER_NAME = "sawmill";

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	/**
	 * How long a node may not answer before the Sentinel counts it down. Long enough that
	 * a node starved of CPU on a loaded 2-core host (a full sync's fork, a burst of
	 * pipelined writes) is not failed over by mistake; short enough that a killed master
	 * is replaced within seconds.
	 */
	private static final Duration DOWN_AFTER = Duration.ofSeconds(5);

	private final List<RedisServerProcess> nodes;

	private final int sentinelPort;

	private final Path dir;

	private final Process sentinel;

	/**
	 * Asks the Sentinel and the nodes, for the test kit's own waits; never the client
	 * under test.
	 */
	private final RedisClient admin = RedisClient.create();

	private RedisSentinelProcess(List<RedisServerProcess> nodes, int sentinelPort, Path dir, Process sentinel) {
		this.nodes = nodes;
		this.sentinelPort = sentinelPort;
		this.dir = dir;
		this.sentinel = sentinel;
	}

	/**
	 * Starts the master, its replica and the Sentinel, and waits until the Sentinel knows
	 * the replica.
	 */
	public static RedisSentinelProcess startNew() {
		Path binary = RedisServerProcess.locate()
			.orElseThrow(() -> new IllegalStateException(
					"redis-server not found: install it (apt-get install -y redis-server) or set SAWMILL_REDIS_SERVER"));
		RedisServerProcess master = RedisServerProcess.startNew(binary);
		RedisServerProcess replica = null;
		Path dir = null;
		Process process;
		int port = RedisServerProcess.freePort();
		try {
			replica = RedisServerProcess.startNew(binary, "--replicaof", master.host(),
					Integer.toString(master.port()));
			dir = Files.createTempDirectory("sawmill-redis-sentinel-");
			Path config = dir.resolve("sentinel.conf");
			Files.writeString(config,
					String.join("\n", "port " + port, "bind 127.0.0.1", "protected-mode no", "dir " + dir,
							"sentinel monitor " + MASTER_NAME + " " + master.host() + " " + master.port() + " 1",
							"sentinel down-after-milliseconds " + MASTER_NAME + " " + DOWN_AFTER.toMillis(),
							"sentinel failover-timeout " + MASTER_NAME + " 10000", ""),
					StandardCharsets.UTF_8);
			process = ChildProcesses.stopOnExit(
					new ProcessBuilder(binary.toString(), config.toString(), "--sentinel").redirectErrorStream(true)
						.redirectOutput(dir.resolve("sentinel.log").toFile())
						.start());
		}
		catch (IOException | RuntimeException ex) {
			master.close();
			if (replica != null) {
				replica.close();
			}
			if (dir != null) {
				RedisServerProcess.deleteRecursively(dir);
			}
			throw new IllegalStateException("could not start a Sentinel: " + ex.getMessage(), ex);
		}
		RedisSentinelProcess sentinel = new RedisSentinelProcess(List.of(master, replica), port, dir, process);
		try {
			sentinel.await("the Sentinel to list the replica",
					() -> sentinel.withSentinel(connection -> !connection.sync().replicas(MASTER_NAME).isEmpty()));
			sentinel.await("the replica to sync", sentinel::replicaInSync);
			return sentinel;
		}
		catch (RuntimeException ex) {
			sentinel.close();
			throw ex;
		}
	}

	/**
	 * {@code host:port} of the Sentinel, what {@code spring.data.redis.sentinel.nodes}
	 * lists.
	 */
	public String sentinelNodes() {
		return "127.0.0.1:" + sentinelPort;
	}

	/** The node the Sentinel names as master now. */
	public RedisServerProcess master() {
		SocketAddress address = withSentinel(connection -> connection.sync().getMasterAddrByName(MASTER_NAME));
		int port = ((InetSocketAddress) address).getPort();
		return nodes.stream()
			.filter(node -> node.port() == port)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("the Sentinel names an unknown master " + address));
	}

	/** The node that is not the master. */
	public RedisServerProcess replica() {
		RedisServerProcess master = master();
		return nodes.get(0) == master ? nodes.get(1) : nodes.get(0);
	}

	/**
	 * Waits until the replica has everything the master has, has the Sentinel promote it,
	 * and waits until the Sentinel names it as master and the old master replicates from
	 * it.
	 */
	public void failover() {
		RedisServerProcess before = master();
		await("the replica to sync before the failover", this::replicaInSync);
		withSentinel(connection -> connection.sync().failover(MASTER_NAME));
		await("the Sentinel to name the new master", () -> master() != before);
		await("the old master to replicate from the new one", () -> replicaInSync() && replica() == before);
	}

	/**
	 * SIGKILLs the master, as in a crash, and waits until the Sentinel has promoted the
	 * replica (it counts a master down after {@link #DOWN_AFTER} without replies). Then
	 * restarts the killed node, empty since nothing is persisted, and waits until the
	 * Sentinel has made it the new master's replica and it has synced.
	 */
	public void crashMaster() {
		RedisServerProcess before = killMaster();
		before.start();
		await("the restarted node to replicate from the new master", () -> replica() == before && replicaInSync());
	}

	/**
	 * SIGKILLs the master, as in a crash, and waits until the Sentinel has promoted the
	 * replica, which is then a master without a replica: the killed node stays down.
	 * @return the killed node
	 */
	public RedisServerProcess killMaster() {
		RedisServerProcess before = master();
		before.kill();
		await("the Sentinel to promote the replica", () -> master() != before);
		return before;
	}

	/**
	 * Whether the replica is connected to the master and has applied all of its
	 * replication stream.
	 */
	private boolean replicaInSync() {
		String master = info(master());
		String replica = info(replica());
		return replica.contains("master_link_status:up")
				&& field(master, "master_repl_offset").equals(field(replica, "master_repl_offset"))
				&& field(master, "connected_slaves").equals("1");
	}

	private String info(RedisServerProcess node) {
		try (StatefulRedisConnection<String, String> connection = admin
			.connect(RedisURI.create(node.host(), node.port()))) {
			return connection.sync().info("replication");
		}
	}

	private static String field(String info, String name) {
		for (String line : info.split("\r?\n")) {
			if (line.startsWith(name + ":")) {
				return line.substring(name.length() + 1).trim();
			}
		}
		return "";
	}

	private <T> T withSentinel(java.util.function.Function<StatefulRedisSentinelConnection<String, String>, T> call) {
		try (StatefulRedisSentinelConnection<String, String> connection = admin
			.connectSentinel(RedisURI.create("127.0.0.1", sentinelPort))) {
			return call.apply(connection);
		}
	}

	private void await(String what, BooleanSupplier done) {
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		RuntimeException last = null;
		while (System.nanoTime() < deadline) {
			try {
				if (done.getAsBoolean()) {
					return;
				}
			}
			catch (RuntimeException notYet) {
				last = notYet;
			}
			RedisServerProcess.sleep(Duration.ofMillis(100));
		}
		throw new IllegalStateException(
				"timed out after " + TIMEOUT + " waiting for " + what + "; sentinel log: " + log(), last);
	}

	private String log() {
		try {
			return Files.readString(dir.resolve("sentinel.log"));
		}
		catch (IOException ex) {
			return "(no log)";
		}
	}

	@Override
	public void close() {
		admin.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		sentinel.destroyForcibly();
		try {
			sentinel.waitFor();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		nodes.forEach(RedisServerProcess::close);
		RedisServerProcess.deleteRecursively(dir);
	}

}
