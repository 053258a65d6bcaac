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
package io.sawmill.redis.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.netty.channel.Channel;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.RedisBatchWriter.Sent;
import io.sawmill.redis.internal.TransactionalBatchWriter.Transaction;

/**
 * A writer thread's connection to a Redis Cluster: Lettuce routes each command sent
 * through its API to its slot's master and flushes every master's connection at once. A
 * batch goes to the masters' channels, grouped per master ({@link SlotSend}, which needs
 * {@link #masterChannel} and {@link #routeOf}), or through Lettuce's API when the
 * channels cannot be reached ({@link EndpointSend}). Redirects can reorder a key's
 * writes, which {@link #keyOrder} and {@link #slotOrder} detect. Transactions go whole to
 * their slot's master ({@link SlotTransactionSend}).
 */
final class ClusterConnection extends DedicatedConnection implements SlotRouting {

	private static final Logger log = LoggerFactory.getLogger(ClusterConnection.class);

	private static final long REFRESH_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final StatefulRedisClusterConnection<byte[], byte[]> connection;

	/** The client, to refresh its topology when a master is down. */
	private final RedisClusterClient client;

	private final KeyOrder keyOrder = new KeyOrder();

	private final SlotReplies.Sequence slotOrder = new SlotReplies.Sequence();

	/**
	 * When the topology was last refreshed for a down master ({@link System#nanoTime()}).
	 */
	private long refreshedNanos = System.nanoTime() - REFRESH_INTERVAL_NANOS;

	/**
	 * The last refresh {@link #refreshTopologyNow} started, whose answer a later call may
	 * still wait for.
	 */
	private @Nullable CompletableFuture<Void> refreshing;

	private final SendPaths paths;

	private ClusterConnection(StatefulRedisClusterConnection<byte[], byte[]> connection, RedisClusterClient client,
			SendPaths paths) {
		super(connection, connection.async());
		this.connection = connection;
		this.client = client;
		this.paths = paths;
	}

	/** Opens a connection and connects it to every master. */
	static ClusterConnection open(RedisClusterClient client, SendPaths paths) {
		ClusterConnection opened = new ClusterConnection(client.connect(ByteArrayCodec.INSTANCE), client, paths);
		opened.connectMasters();
		return opened;
	}

	@Override
	Sent send(List<RedisWrite> writes, long deadline) {
		return EndpointChannel.available() ? paths.slot().send(this, writes, deadline)
				: paths.endpoint().send(this, writes, deadline);
	}

	/**
	 * Each transaction to its slot's master ({@link SlotTransactionSend}); when Lettuce
	 * hides the masters' channels, every write fails at once.
	 */
	@Override
	Sent sendTransactions(List<Transaction> transactions, List<RedisWrite> writes, long deadline) {
		if (!EndpointChannel.available()) {
			PipelineResult failed = ConnectionFailures.failed(writes, 0, List.of(), new UnsupportedOperationException(
					"this Lettuce version does not expose the masters' channels that transactions are written to"));
			return () -> failed;
		}
		return paths.slotTransactions().send(this, transactions, writes, deadline);
	}

	/**
	 * Connects to every master not yet connected. Lettuce connects to a master on the
	 * first command routed to it and writes the commands queued meanwhile from the
	 * connect's callback: out of order, and possibly after the writer's last flush, where
	 * they wait for the next one (redis/lettuce#1111). Called when the connection opens
	 * and before each batch, so a master that a topology refresh added is connected
	 * before commands go to it. Connections already open are looked up, not opened again.
	 */
	@Override
	public void connectMasters() {
		for (RedisClusterNode node : connection.getPartitions()) {
			if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
				try {
					// by host and port, the connection that slot-routed commands use (not
					// by node id)
					connection.getConnection(node.getUri().getHost(), node.getUri().getPort());
				}
				catch (RuntimeException ex) {
					// the commands routed to it fail on their own and are retried; the
					// others go ahead
					log.debug("Could not connect to Redis master {}", node.getUri(), ex);
				}
			}
		}
	}

	/**
	 * The master a command to {@code key} is routed to now, or null when no master serves
	 * the slot.
	 */
	@Override
	public @Nullable RedisClusterNode routeOf(byte[] key) {
		return connection.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
	}

	/**
	 * The commands of the connection to {@code master} that slot-routed commands use,
	 * looked up by host and port, as Lettuce routes them.
	 */
	@Override
	public @Nullable RedisClusterAsyncCommands<byte[], byte[]> commandsTo(@Nullable RedisClusterNode master,
			long deadline) {
		if (master == null) {
			return null; // no master served the slot
		}
		try {
			return connection.getConnectionAsync(master.getUri().getHost(), master.getUri().getPort())
				.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
				.async();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
		catch (ExecutionException | TimeoutException | RuntimeException ex) {
			log.debug("No connection to Redis master {}", master.getUri(), ex);
			return null;
		}
	}

	/**
	 * The channel of the connection to {@code master} that slot-routed commands use
	 * (looked up by host and port, as Lettuce routes them, so that what the writer sends
	 * on that connection through Lettuce's API follows the chunks written here); null for
	 * a null master, or while that connection is being opened or is reconnecting. Never
	 * blocks.
	 */
	@Override
	public @Nullable Channel masterChannel(@Nullable RedisClusterNode master) {
		if (master == null) {
			return null;
		}
		try {
			CompletableFuture<StatefulRedisConnection<byte[], byte[]>> link = connection
				.getConnectionAsync(master.getUri().getHost(), master.getUri().getPort());
			return link.isDone() && !link.isCompletedExceptionally() ? EndpointChannel.ofMaster(link.join()) : null;
		}
		catch (RuntimeException ex) {
			// not a master of the cluster's view any more:
			// the command goes through the API
			return null;
		}
	}

	/** The masters that serve slots in the topology now. */
	List<RedisClusterNode> masters() {
		return connection.getPartitions()
			.getPartitions()
			.stream()
			.filter(node -> node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getSlots().isEmpty())
			.toList();
	}

	@Override
	boolean everyMasterReplicated() {
		List<RedisClusterNode> nodes = List.copyOf(connection.getPartitions().getPartitions());
		List<RedisClusterNode> masters = masters();
		// is(REPLICA) also matches the flag's old name, SLAVE
		return !masters.isEmpty()
				&& masters.stream()
					.allMatch(master -> nodes.stream()
						.anyMatch(node -> node.is(RedisClusterNode.NodeFlag.REPLICA)
								&& !node.is(RedisClusterNode.NodeFlag.FAIL)
								&& master.getNodeId().equals(node.getSlaveOf())));
	}

	/**
	 * Whether the link to {@code master} is known to be down: its connection lost its
	 * channel (Lettuce is reconnecting) or could not be opened, or it is no master of the
	 * topology any more. A null master (a write routed before the topology knew its
	 * slot): whether the connection is.
	 */
	@Override
	public boolean isDown(@Nullable RedisClusterNode master) {
		if (master == null) {
			return !connection.isOpen();
		}
		try {
			CompletableFuture<StatefulRedisConnection<byte[], byte[]>> link = connection
				.getConnectionAsync(master.getUri().getHost(), master.getUri().getPort());
			return link.isDone() && (link.isCompletedExceptionally() || !link.join().isOpen());
		}
		catch (RuntimeException ex) {
			return true; // not a master of the cluster's view any more
		}
	}

	@Override
	public void refreshTopology() {
		long now = System.nanoTime();
		if (now - refreshedNanos >= REFRESH_INTERVAL_NANOS) {
			refreshedNanos = now;
			client.refreshPartitionsAsync().exceptionally(ex -> {
				log.debug("Refreshing the Redis Cluster topology failed", ex);
				return null;
			});
		}
	}

	/**
	 * Asks the cluster for its topology again and waits for the answer until
	 * {@code deadline}, so that commands sent next go to the masters that serve their
	 * slots now; at most once a second (a refresh still running is waited for).
	 */
	@Override
	public void refreshTopologyNow(long deadline) {
		CompletableFuture<Void> refresh = refreshing;
		long now = System.nanoTime();
		if ((refresh == null || refresh.isDone()) && now - refreshedNanos >= REFRESH_INTERVAL_NANOS) {
			refreshedNanos = now;
			refresh = client.refreshPartitionsAsync().toCompletableFuture();
			refreshing = refresh;
		}
		if (refresh == null) {
			return;
		}
		try {
			refresh.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			log.debug("Refreshing the Redis Cluster topology failed", ex);
		}
	}

	/**
	 * Whether each key's writes were applied in the order they were queued (redirects can
	 * reorder them).
	 */
	@Override
	public KeyOrder keyOrder() {
		return keyOrder;
	}

	/**
	 * The batches {@link SlotSend} sent on this connection, to tell which writes sent
	 * again after a redirect were overtaken.
	 */
	@Override
	public SlotReplies.Sequence slotOrder() {
		return slotOrder;
	}

	/** Loads the library on every master and waits for the replies. */
	@Override
	void loadFunction(String source, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		List<RedisFuture<String>> loads = new ArrayList<>(3);
		for (RedisClusterNode node : masters()) {
			RedisClusterAsyncCommands<byte[], byte[]> master = commandsTo(node, deadline);
			if (master == null) {
				throw new IllegalStateException("no connection to Redis master " + node.getUri());
			}
			loads.add(master.functionLoad(source, true));
		}
		awaitLoads(loads, deadline);
	}

}
