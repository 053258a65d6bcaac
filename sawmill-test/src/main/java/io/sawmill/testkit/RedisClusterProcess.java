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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real Redis Cluster for tests: three masters (with replicas if asked), each a
 * {@code redis-server} process on a free loopback port, joined with
 * {@code redis-cli --cluster create}. Persists nothing; every node works in a directory
 * of its own under one temporary directory, which {@link #close()} deletes after killing
 * the nodes. The binaries are those {@link RedisServerProcess#locate()} finds, and the
 * {@code redis-cli} next to it (else on the PATH).
 */
public final class RedisClusterProcess implements AutoCloseable {

	private final Path dir;

	private final List<ClusterNode> nodes = new ArrayList<>();

	private final ClusterFailover failover = new ClusterFailover(nodes);

	private RedisClusterProcess() throws IOException {
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
		Path cli = ClusterFormation.locateCli(binary)
			.orElseThrow(() -> new IllegalStateException("redis-cli not found next to " + binary
					+ " nor on the PATH: install it (apt-get install -y redis-tools)"));
		RedisClusterProcess cluster;
		try {
			cluster = new RedisClusterProcess();
		}
		catch (IOException ex) {
			throw new IllegalStateException("could not create a temporary directory: " + ex.getMessage(), ex);
		}
		try {
			new ClusterFormation(binary, cluster.dir, replicasPerMaster, cluster.nodes).form(cli);
			return cluster;
		}
		catch (RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	/**
	 * Sends a command to one node over a raw connection and returns its reply as text: a
	 * status, an error (prefixed with {@code -}), an integer or a bulk string. Other
	 * reply types are not supported.
	 */
	public String command(int port, String... args) {
		return ClusterNode.command(port, args);
	}

	public String host() {
		return ClusterNode.HOST;
	}

	/**
	 * The client ports of the nodes (the masters, and their replicas if any), in the
	 * order they were started.
	 */
	public List<Integer> ports() {
		return nodes.stream().map(ClusterNode::port).toList();
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
		return failover.masters();
	}

	/**
	 * The port of a live replica of the master on {@code masterPort}, by the replicas'
	 * own {@code INFO replication}.
	 */
	public int replicaOf(int masterPort) {
		return failover.replicaOf(masterPort);
	}

	/**
	 * A planned failover: {@code CLUSTER FAILOVER} on the replica on {@code replicaPort},
	 * which waits for its master to stop taking writes, catches up and takes its slots
	 * over; returns once the replica reports itself master.
	 */
	public void failover(int replicaPort) {
		failover.failover(replicaPort);
	}

	/**
	 * Waits until the node on {@code port} reports itself master, as a replica does once
	 * it took over.
	 */
	public void awaitMaster(int port, Duration timeout) {
		failover.awaitMaster(port, timeout);
	}

	/**
	 * Waits until every live node sees every master that serves slots with a connected
	 * replica that is not failed, and every replica has synced with its master: the state
	 * a failover, or a killed node's restart, leaves the cluster in once gossip has
	 * settled. A client that reads the topology before then may be told of a master
	 * without a replica.
	 */
	public void awaitReplicated(Duration timeout) {
		failover.awaitReplicated(timeout);
	}

	/**
	 * SIGSTOPs the node on {@code port}: it keeps its connections open but answers
	 * nothing, as a frozen host.
	 */
	public void pause(int port) {
		node(port).signal("STOP");
	}

	/**
	 * SIGCONTs a node {@link #pause paused}: it goes on with whatever it had read
	 * meanwhile.
	 */
	public void resume(int port) {
		node(port).signal("CONT");
	}

	private ClusterNode node(int port) {
		return nodes.stream()
			.filter(node -> node.port() == port)
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("no node on port " + port + " in " + ports()));
	}

	/** Kills every node and deletes their directories. */
	@Override
	public void close() {
		nodes.forEach(ClusterNode::kill);
		RedisServerProcess.deleteRecursively(dir);
	}

}
