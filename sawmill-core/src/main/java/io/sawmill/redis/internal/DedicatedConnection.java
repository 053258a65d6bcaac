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

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.netty.channel.Channel;

/**
 * A connection owned by one writer thread, with auto-flush off so that commands queue until the
 * writer flushes them. Works for a standalone/Sentinel {@link RedisClient} and for a
 * {@link RedisClusterClient}: a cluster connection routes each command sent through its API to its
 * shard and flushes every shard connection at once, and gives the writer the channel of each
 * master's connection ({@link #masterChannel}) and the master of each key ({@link #routeOf}).
 */
final class DedicatedConnection implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(DedicatedConnection.class);

	private final StatefulConnection<byte[], byte[]> connection;
	private final RedisClusterAsyncCommands<byte[], byte[]> commands;

	private final boolean standalone;

	private final KeyOrder keyOrder;

	private final SlotReplies.Sequence slotOrder;

	/** The cluster client, to refresh its topology when a master is down; null on a standalone connection. */
	private final RedisClusterClient clusterClient;

	/** When the topology was last refreshed for a down master ({@link System#nanoTime()}). */
	private long refreshedNanos = System.nanoTime() - REFRESH_INTERVAL_NANOS;

	private static final long REFRESH_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** The last refresh {@link #refreshTopologyNow} started, whose answer a later call may still wait for. */
	private CompletableFuture<Void> refreshing;

	private DedicatedConnection(StatefulConnection<byte[], byte[]> connection,
			RedisClusterAsyncCommands<byte[], byte[]> commands, RedisClusterClient clusterClient) {
		this.connection = connection;
		this.commands = commands;
		this.standalone = clusterClient == null;
		this.clusterClient = clusterClient;
		this.keyOrder = standalone ? null : new KeyOrder();
		this.slotOrder = standalone ? null : new SlotReplies.Sequence();
		connection.setAutoFlushCommands(false);
	}

	static DedicatedConnection open(AbstractRedisClient client) {
		if (client instanceof RedisClusterClient cluster) {
			StatefulRedisClusterConnection<byte[], byte[]> connection = cluster.connect(ByteArrayCodec.INSTANCE);
			DedicatedConnection dedicated = new DedicatedConnection(connection, connection.async(), cluster);
			dedicated.connectMasters();
			return dedicated;
		}
		if (client instanceof RedisClient standalone) {
			StatefulRedisConnection<byte[], byte[]> connection = standalone.connect(ByteArrayCodec.INSTANCE);
			return new DedicatedConnection(connection, connection.async(), null);
		}
		throw new IllegalStateException("unsupported Redis client " + client.getClass().getName());
	}

	/**
	 * On a cluster connection, connects to every master not yet connected; a no-op otherwise. Lettuce
	 * connects to a master on the first command routed to it and writes the commands queued meanwhile
	 * from the connect's callback: out of order, and possibly after the writer's last flush, where
	 * they wait for the next one (redis/lettuce#1111). Called when the connection opens and before
	 * each batch, so a master that a topology refresh added is connected before commands go to it.
	 * Connections already open are looked up, not opened again.
	 */
	void connectMasters() {
		if (connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
			for (RedisClusterNode node : cluster.getPartitions()) {
				if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
					try {
						// by host and port, the connection that slot-routed commands use (not by node id)
						cluster.getConnection(node.getUri().getHost(), node.getUri().getPort());
					}
					catch (RuntimeException ex) {
						// the commands routed to it fail on their own and are retried; the others go ahead
						log.debug("Could not connect to Redis master {}", node.getUri(), ex);
					}
				}
			}
		}
	}

	/**
	 * The master a command to {@code key} is routed to now, on a cluster connection; null on a
	 * standalone one (or when no master serves the slot).
	 */
	RedisClusterNode routeOf(byte[] key) {
		return connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster
				? cluster.getPartitions().getMasterBySlot(SlotHash.getSlot(key)) : null;
	}

	/**
	 * On a cluster connection, the commands of the connection to {@code master} that slot-routed
	 * commands use (looked up by host and port, as Lettuce routes them), so that a command sent on it
	 * follows the writes routed there; null on a standalone connection, or when that connection is
	 * not open by {@code deadline}.
	 */
	RedisClusterAsyncCommands<byte[], byte[]> masterCommands(RedisClusterNode master, long deadline) {
		if (!(connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster)) {
			return null;
		}
		try {
			return cluster.getConnectionAsync(master.getUri().getHost(), master.getUri().getPort())
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
	 * On a cluster connection, the channel of the connection to {@code master} that slot-routed
	 * commands use (looked up by host and port, as Lettuce routes them, so that what the writer sends
	 * on that connection through Lettuce's API follows the chunks written here); null on a standalone
	 * connection, or while that connection is being opened or is reconnecting. Never blocks.
	 */
	Channel masterChannel(RedisClusterNode master) {
		if (!(connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) || master == null) {
			return null;
		}
		try {
			CompletableFuture<StatefulRedisConnection<byte[], byte[]>> link = cluster
				.getConnectionAsync(master.getUri().getHost(), master.getUri().getPort());
			return link.isDone() && !link.isCompletedExceptionally() ? EndpointChannel.ofMaster(link.join()) : null;
		}
		catch (RuntimeException ex) {
			return null; // not a master of the cluster's view any more: the command goes through the API
		}
	}

	/** On a cluster connection, the masters that serve slots in its topology now; empty on a standalone one. */
	List<RedisClusterNode> masters() {
		if (!(connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster)) {
			return List.of();
		}
		return cluster.getPartitions()
			.getPartitions()
			.stream()
			.filter(node -> node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getSlots().isEmpty())
			.toList();
	}

	/**
	 * Whether this is a cluster connection whose topology gives every master serving slots at least
	 * one replica: then a replica can take a master over, and a batch should wait for one.
	 */
	boolean everyMasterReplicated() {
		if (!(connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster)) {
			return false;
		}
		List<RedisClusterNode> nodes = List.copyOf(cluster.getPartitions().getPartitions());
		List<RedisClusterNode> masters = masters();
		return !masters.isEmpty() && masters.stream()
			.allMatch(master -> nodes.stream().anyMatch(node -> (node.is(RedisClusterNode.NodeFlag.REPLICA) || node.is(RedisClusterNode.NodeFlag.SLAVE))
					&& !node.is(RedisClusterNode.NodeFlag.FAIL) && master.getNodeId().equals(node.getSlaveOf())));
	}

	/**
	 * Whether the link to {@code master} is known to be down: its connection lost its channel (Lettuce
	 * is reconnecting) or could not be opened. With a null master, whether this (standalone)
	 * connection is down. Never blocks: a connection still being opened counts as up.
	 */
	boolean isDown(RedisClusterNode master) {
		if (master == null || !(connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster)) {
			return !connection.isOpen();
		}
		try {
			CompletableFuture<StatefulRedisConnection<byte[], byte[]>> link = cluster
				.getConnectionAsync(master.getUri().getHost(), master.getUri().getPort());
			return link.isDone() && (link.isCompletedExceptionally() || !link.join().isOpen());
		}
		catch (RuntimeException ex) {
			return true; // not a master of the cluster's view any more
		}
	}

	/**
	 * Asks the cluster for its topology again, at most once a second, so that commands go to the
	 * master a failover promoted; a no-op on a standalone connection. Does not wait for the answer.
	 */
	void refreshTopology() {
		long now = System.nanoTime();
		if (clusterClient != null && now - refreshedNanos >= REFRESH_INTERVAL_NANOS) {
			refreshedNanos = now;
			clusterClient.refreshPartitionsAsync().exceptionally(ex -> {
				log.debug("Refreshing the Redis Cluster topology failed", ex);
				return null;
			});
		}
	}

	/**
	 * Asks the cluster for its topology again and waits for the answer until {@code deadline}, so that
	 * commands sent next go to the masters that serve their slots now; a no-op on a standalone
	 * connection, and at most once a second (a refresh still running is waited for).
	 */
	void refreshTopologyNow(long deadline) {
		if (clusterClient == null) {
			return;
		}
		CompletableFuture<Void> refresh = refreshing;
		long now = System.nanoTime();
		if ((refresh == null || refresh.isDone()) && now - refreshedNanos >= REFRESH_INTERVAL_NANOS) {
			refreshedNanos = now;
			refresh = clusterClient.refreshPartitionsAsync().toCompletableFuture();
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

	RedisClusterAsyncCommands<byte[], byte[]> commands() {
		return commands;
	}

	/**
	 * Whether each key's writes were applied in the order they were queued, on a cluster connection
	 * (where redirects can reorder them); null on a standalone one, which applies them in order.
	 */
	KeyOrder keyOrder() {
		return keyOrder;
	}

	/**
	 * The batches {@link SlotSend} sent on this cluster connection, to tell which writes sent again
	 * after a redirect were overtaken; null on a standalone one.
	 */
	SlotReplies.Sequence slotOrder() {
		return slotOrder;
	}

	/**
	 * The channel to write whole chunks to, or null when commands must go through the endpoint: a
	 * cluster connection (routed per slot), a connection that is reconnecting, or a Lettuce whose
	 * channel cannot be reached.
	 */
	Channel directChannel() {
		return standalone ? EndpointChannel.of(connection) : null;
	}

	/** Sends PING and waits for its answer; throws when none comes within {@code timeout}. */
	void ping(Duration timeout) {
		RedisFuture<String> pong = commands.ping();
		flush();
		try {
			pong.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while waiting for PING", ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			Throwable cause = ex instanceof ExecutionException && ex.getCause() != null ? ex.getCause() : ex;
			throw new IllegalStateException("Redis did not answer PING within " + timeout + ": " + cause, ex);
		}
	}

	/**
	 * {@code FUNCTION LOAD REPLACE source} on the master, or on every master of a cluster (a
	 * function is called on the master of its key's slot), and waits for the replies.
	 * @throws IllegalStateException when a master did not load it within {@code timeout}
	 */
	void loadFunction(String source, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		List<RedisFuture<String>> loads = new ArrayList<>(3);
		if (connection instanceof StatefulRedisClusterConnection<byte[], byte[]>) {
			for (RedisClusterNode node : masters()) {
				RedisClusterAsyncCommands<byte[], byte[]> master = masterCommands(node, deadline);
				if (master == null) {
					throw new IllegalStateException("no connection to Redis master " + node.getUri());
				}
				loads.add(master.functionLoad(source, true));
			}
		}
		else {
			loads.add(commands.functionLoad(source, true));
		}
		flush();
		for (RedisFuture<String> load : loads) {
			try {
				load.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted while loading a Redis Function library", ex);
			}
			catch (ExecutionException | TimeoutException ex) {
				Throwable cause = ex instanceof ExecutionException && ex.getCause() != null ? ex.getCause() : ex;
				throw new IllegalStateException("FUNCTION LOAD failed: " + cause.getMessage(), cause);
			}
		}
	}

	/**
	 * {@code MGET keys} and waits for the reply; it goes after every command sent on this connection
	 * before it.
	 * @return each key's value, null where it does not exist
	 * @throws IllegalStateException when no reply came within {@code timeout}
	 */
	List<byte[]> read(List<byte[]> keys, Duration timeout) {
		RedisFuture<List<KeyValue<byte[], byte[]>>> values = commands.mget(keys.toArray(new byte[0][]));
		flush();
		try {
			List<KeyValue<byte[], byte[]>> reply = values.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
			List<byte[]> read = new ArrayList<>(reply.size());
			reply.forEach(value -> read.add(value.getValueOrElse(null)));
			return read;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while reading from Redis", ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			values.cancel(true);
			Throwable cause = ex instanceof ExecutionException && ex.getCause() != null ? ex.getCause() : ex;
			throw new IllegalStateException("Redis did not answer MGET within " + timeout + ": " + cause, cause);
		}
	}

	void flush() {
		connection.flushCommands();
	}

	boolean isOpen() {
		return connection.isOpen();
	}

	@Override
	public void close() {
		connection.close();
	}
}
