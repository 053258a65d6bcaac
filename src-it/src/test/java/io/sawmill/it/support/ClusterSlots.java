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
package io.sawmill.it.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.lettuce.core.MigrateArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.sawmill.testkit.RedisClusterProcess;

/**
 * The hash slots of a {@link RedisClusterProcess}, as its masters themselves see them,
 * and moving them by hand the way {@code redis-cli --cluster reshard} does, in three
 * steps so that a test can hold slots mid-migration: {@link #beginMove} (IMPORTING on the
 * target, MIGRATING on the source), {@link #migrateKeys} (MIGRATE a few keys at a time)
 * and {@link #endMove} (every master assigns the slots to the target, the target first).
 * Meanwhile a client meets ASK redirects for the keys already moved and, once the slots
 * are assigned, MOVED redirects if its topology is stale. Keys are never migrated with
 * REPLACE: a key on both sides would be a bug, and MIGRATE then fails.
 * <p>
 * One plain connection per master; not thread-safe.
 */
public final class ClusterSlots implements AutoCloseable {

	private static final Duration MIGRATE_TIMEOUT = Duration.ofSeconds(5);

	private final RedisClusterProcess cluster;

	private final RedisClient client = RedisClient.create();

	private final Map<Integer, StatefulRedisConnection<String, String>> masters = new LinkedHashMap<>();

	private final Map<Integer, String> ids = new LinkedHashMap<>();

	private ClusterSlots(RedisClusterProcess cluster) {
		this.cluster = cluster;
	}

	/** Connects to every master of the cluster. */
	public static ClusterSlots of(RedisClusterProcess cluster) {
		ClusterSlots slots = new ClusterSlots(cluster);
		try {
			for (int port : cluster.ports()) {
				StatefulRedisConnection<String, String> master = slots.client
					.connect(RedisURI.create(cluster.host(), port));
				slots.masters.put(port, master);
				slots.ids.put(port, master.sync().clusterMyId());
			}
			return slots;
		}
		catch (RuntimeException ex) {
			slots.close();
			throw ex;
		}
	}

	/** The hash slot of a key. */
	public static int slotOf(String key) {
		return SlotHash.getSlot(key);
	}

	/** The port of the master that serves the slot by its own account. */
	public int ownerOf(int slot) {
		int owner = owners()[slot];
		if (owner == 0) {
			throw new IllegalStateException("no master serves slot " + slot);
		}
		return owner;
	}

	/**
	 * For every slot, the port of the master that serves it by its own account (0 for
	 * none).
	 */
	public int[] owners() {
		int[] owners = new int[SlotHash.SLOT_COUNT];
		for (int port : masters.keySet()) {
			for (RedisClusterNode node : view(port)) {
				if (node.is(RedisClusterNode.NodeFlag.MYSELF)) {
					node.getSlots().forEach(slot -> owners[slot] = port);
				}
			}
		}
		return owners;
	}

	/** The slots that some master does not see assigned to the master on {@code port}. */
	public Set<Integer> notSeenOn(Collection<Integer> slots, int port) {
		String id = ids.get(port);
		Set<Integer> notSeen = new TreeSet<>();
		for (int viewer : masters.keySet()) {
			Set<Integer> seen = new HashSet<>();
			for (RedisClusterNode node : view(viewer)) {
				if (node.getNodeId().equals(id)) {
					seen.addAll(node.getSlots());
				}
			}
			slots.stream().filter(slot -> !seen.contains(slot)).forEach(notSeen::add);
		}
		return notSeen;
	}

	private Iterable<RedisClusterNode> view(int port) {
		return ClusterPartitionParser.parse(masters.get(port).sync().clusterNodes());
	}

	/**
	 * Starts moving the slots from the master on {@code source} to the one on
	 * {@code target}: each is IMPORTING on the target, then MIGRATING on the source. A
	 * key the source no longer holds is now answered with ASK.
	 */
	public void beginMove(Collection<Integer> slots, int source, int target) {
		RedisCommands<String, String> from = masters.get(source).sync();
		RedisCommands<String, String> to = masters.get(target).sync();
		for (int slot : slots) {
			expectOk(to.clusterSetSlotImporting(slot, ids.get(source)), "IMPORTING", slot, target);
			expectOk(from.clusterSetSlotMigrating(slot, ids.get(target)), "MIGRATING", slot, source);
		}
	}

	/**
	 * MIGRATEs the keys of the slots, {@code keysPerMigrate} at a time, until the source
	 * holds none.
	 * @return how many keys moved
	 */
	public int migrateKeys(Collection<Integer> slots, int source, int target, int keysPerMigrate) {
		RedisCommands<String, String> from = masters.get(source).sync();
		int moved = 0;
		for (int slot : slots) {
			List<String> keys;
			while (!(keys = from.clusterGetKeysInSlot(slot, keysPerMigrate)).isEmpty()) {
				expectOk(from.migrate(cluster.host(), target, 0, MIGRATE_TIMEOUT.toMillis(),
						MigrateArgs.Builder.keys(keys)), "MIGRATE " + keys, slot, source);
				moved += keys.size();
			}
		}
		return moved;
	}

	/**
	 * Assigns the slots to the master on {@code target} on every master, the target
	 * first; the others answer MOVED from then on.
	 */
	public void endMove(Collection<Integer> slots, int target) {
		List<Integer> order = new ArrayList<>(masters.keySet());
		order.remove(Integer.valueOf(target));
		order.add(0, target);
		for (int port : order) {
			RedisCommands<String, String> master = masters.get(port).sync();
			for (int slot : slots) {
				expectOk(master.clusterSetSlotNode(slot, ids.get(target)), "NODE", slot, port);
			}
		}
	}

	/**
	 * How many error replies starting with {@code prefix} (e.g. MOVED, ASK) all masters
	 * sent since they started.
	 */
	public long errorReplies(String prefix) {
		long count = 0;
		for (StatefulRedisConnection<String, String> master : masters.values()) {
			for (String line : master.sync().info("errorstats").split("\r?\n")) {
				if (line.startsWith("errorstat_" + prefix + ":count=")) {
					count += Long.parseLong(line.substring(line.indexOf('=') + 1).split(",")[0]);
				}
			}
		}
		return count;
	}

	private static void expectOk(String reply, String step, int slot, int port) {
		if (!"OK".equals(reply)) {
			throw new IllegalStateException(step + " of slot " + slot + " on " + port + " answered " + reply);
		}
	}

	/** The keys matching {@code pattern} that each master holds, by port. */
	public Map<Integer, List<String>> keys(String pattern) {
		Map<Integer, List<String>> keys = new LinkedHashMap<>();
		masters.forEach((port, master) -> keys.put(port, new ArrayList<>(master.sync().keys(pattern))));
		return keys;
	}

	@Override
	public void close() {
		masters.values().forEach(StatefulRedisConnection::close);
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

}
