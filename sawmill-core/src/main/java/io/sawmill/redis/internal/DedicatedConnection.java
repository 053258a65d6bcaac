package io.sawmill.redis.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.netty.channel.Channel;

/**
 * A connection owned by one writer thread, with auto-flush off so that commands queue until the
 * writer flushes them. Works for a standalone/Sentinel {@link RedisClient} and for a
 * {@link RedisClusterClient} (whose connection routes each command to its shard and flushes every
 * shard connection at once).
 */
final class DedicatedConnection implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(DedicatedConnection.class);

	private final StatefulConnection<byte[], byte[]> connection;
	private final RedisClusterAsyncCommands<byte[], byte[]> commands;

	private final boolean standalone;

	private final KeyOrder keyOrder;

	private DedicatedConnection(StatefulConnection<byte[], byte[]> connection,
			RedisClusterAsyncCommands<byte[], byte[]> commands, boolean standalone) {
		this.connection = connection;
		this.commands = commands;
		this.standalone = standalone;
		this.keyOrder = standalone ? null : new KeyOrder();
		connection.setAutoFlushCommands(false);
	}

	static DedicatedConnection open(AbstractRedisClient client) {
		if (client instanceof RedisClusterClient cluster) {
			StatefulRedisClusterConnection<byte[], byte[]> connection = cluster.connect(ByteArrayCodec.INSTANCE);
			DedicatedConnection dedicated = new DedicatedConnection(connection, connection.async(), false);
			dedicated.connectMasters();
			return dedicated;
		}
		if (client instanceof RedisClient standalone) {
			StatefulRedisConnection<byte[], byte[]> connection = standalone.connect(ByteArrayCodec.INSTANCE);
			return new DedicatedConnection(connection, connection.async(), true);
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
	 * The channel to write whole chunks to, or null when commands must go through the endpoint: a
	 * cluster connection (routed per slot), a connection that is reconnecting, or a Lettuce whose
	 * channel cannot be reached.
	 */
	Channel directChannel() {
		return standalone ? EndpointChannel.of(connection) : null;
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
