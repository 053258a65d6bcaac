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

import java.time.Duration;
import java.util.List;

/**
 * Who is master in a {@link RedisClusterProcess}, who replicates whom, and the failovers
 * that change it, each by the nodes' own {@code INFO replication} and
 * {@code CLUSTER NODES}.
 */
final class ClusterFailover {

	private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(30);

	private final List<ClusterNode> nodes;

	ClusterFailover(List<ClusterNode> nodes) {
		this.nodes = nodes;
	}

	List<Integer> masters() {
		return nodes.stream()
			.filter(ClusterNode::isAlive)
			.map(ClusterNode::port)
			.filter(port -> ClusterNode.role(port).contains("role:master"))
			.toList();
	}

	int replicaOf(int masterPort) {
		return nodes.stream().filter(ClusterNode::isAlive).map(ClusterNode::port).filter(port -> {
			String role = ClusterNode.role(port);
			return role.contains("role:slave") && role.contains("master_port:" + masterPort + "\r");
		})
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("no replica of " + masterPort + " among " + ports()));
	}

	void failover(int replicaPort) {
		String reply = ClusterNode.command(replicaPort, "CLUSTER", "FAILOVER");
		if (!"OK".equals(reply)) {
			throw new IllegalStateException("CLUSTER FAILOVER on " + replicaPort + " answered " + reply);
		}
		awaitMaster(replicaPort, FAILOVER_TIMEOUT);
	}

	void awaitMaster(int port, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!ClusterNode.role(port).contains("role:master")) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("the node on " + port + " did not become master within " + timeout);
			}
			RedisServerProcess.sleep(Duration.ofMillis(50));
		}
	}

	void awaitReplicated(Duration timeout) {
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
		for (ClusterNode node : nodes) {
			if (!node.isAlive()) {
				continue;
			}
			String view;
			try {
				if (!node.synced()) {
					return "node " + node.port() + " has not synced with its master";
				}
				view = node.command("CLUSTER", "NODES");
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
					return "node " + node.port() + " sees master " + master[1] + " without a replica: " + view;
				}
			}
		}
		return "";
	}

	private List<Integer> ports() {
		return nodes.stream().map(ClusterNode::port).toList();
	}

}
