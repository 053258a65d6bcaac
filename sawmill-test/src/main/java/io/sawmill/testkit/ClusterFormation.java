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
 * Forms a {@link RedisClusterProcess}: starts its nodes, joins them with
 * {@code redis-cli --cluster create} (which assigns the slots and the replicas) and waits
 * until every node reports the cluster ok.
 */
final class ClusterFormation {

	private static final int MASTERS = 3;

	/**
	 * The default Redis port and its cluster bus port, used by a Redis this machine may
	 * run anyway.
	 */
	private static final Set<Integer> RESERVED_PORTS = Set.of(6379, 16379);

	private static final Duration CREATE_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration CLUSTER_OK_TIMEOUT = Duration.ofSeconds(30);

	private final Path binary;

	private final Path dir;

	private final int replicasPerMaster;

	private final List<ClusterNode> nodes;

	/**
	 * @param nodes where the started nodes go, each as soon as it is started, so that the
	 * cluster can kill them if a later step fails
	 */
	ClusterFormation(Path binary, Path dir, int replicasPerMaster, List<ClusterNode> nodes) {
		this.binary = binary;
		this.dir = dir;
		this.replicasPerMaster = replicasPerMaster;
		this.nodes = nodes;
	}

	/** The {@code redis-cli} next to {@code server}, else the one on the PATH. */
	static Optional<Path> locateCli(Path server) {
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

	void form(Path cli) {
		startNodes();
		create(cli);
		awaitClusterOk(CLUSTER_OK_TIMEOUT);
	}

	private void startNodes() {
		Set<Integer> taken = new HashSet<>(RESERVED_PORTS);
		for (int i = 0; i < MASTERS * (1 + replicasPerMaster); i++) {
			// The cluster bus gets a free port of its own (cluster-port, Redis 7): the
			// default, port + 10000, is out of range for a port from the upper half of
			// the ephemeral range.
			ClusterNode node = new ClusterNode(binary, dir, freePort(taken), freePort(taken));
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
		nodes.forEach(node -> command.add(ClusterNode.HOST + ":" + node.port()));
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
			throw new IllegalStateException("redis-cli --cluster create did not finish within " + CREATE_TIMEOUT + ": "
					+ ClusterNode.read(log));
		}
		if (create.exitValue() != 0) {
			throw new IllegalStateException(
					"redis-cli --cluster create exited with " + create.exitValue() + ": " + ClusterNode.read(log));
		}
	}

	private void awaitClusterOk(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		String last = "";
		while (System.nanoTime() < deadline) {
			boolean allOk = true;
			for (ClusterNode node : nodes) {
				node.checkAlive();
				String info;
				try {
					info = node.command("CLUSTER", "INFO");
				}
				catch (IllegalStateException notYet) {
					info = notYet.getMessage();
				}
				if (!(info.contains("cluster_state:ok") && info.contains("cluster_slots_ok:16384")
						&& info.contains("cluster_known_nodes:" + nodes.size()) && node.synced())) {
					allOk = false;
					last = "node " + node.port() + ": " + info;
					break;
				}
			}
			if (allOk) {
				return;
			}
			RedisServerProcess.sleep(Duration.ofMillis(50));
		}
		throw new IllegalStateException("the Redis Cluster on " + nodes.stream().map(ClusterNode::port).toList()
				+ " did not report cluster_state:ok within " + timeout + "; last CLUSTER INFO of " + last);
	}

}
