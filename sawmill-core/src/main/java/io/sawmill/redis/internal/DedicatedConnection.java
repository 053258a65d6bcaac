package io.sawmill.redis.internal;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.netty.channel.Channel;

/**
 * A connection owned by one writer thread, with auto-flush off so that commands queue until the
 * writer flushes them. Works for a standalone/Sentinel {@link RedisClient} and for a
 * {@link RedisClusterClient} (whose connection routes each command to its shard and flushes every
 * shard connection at once).
 */
final class DedicatedConnection implements AutoCloseable {

	private final StatefulConnection<byte[], byte[]> connection;
	private final RedisClusterAsyncCommands<byte[], byte[]> commands;

	private final boolean standalone;

	private DedicatedConnection(StatefulConnection<byte[], byte[]> connection,
			RedisClusterAsyncCommands<byte[], byte[]> commands, boolean standalone) {
		this.connection = connection;
		this.commands = commands;
		this.standalone = standalone;
		connection.setAutoFlushCommands(false);
	}

	static DedicatedConnection open(AbstractRedisClient client) {
		if (client instanceof RedisClusterClient cluster) {
			StatefulRedisClusterConnection<byte[], byte[]> connection = cluster.connect(ByteArrayCodec.INSTANCE);
			return new DedicatedConnection(connection, connection.async(), false);
		}
		if (client instanceof RedisClient standalone) {
			StatefulRedisConnection<byte[], byte[]> connection = standalone.connect(ByteArrayCodec.INSTANCE);
			return new DedicatedConnection(connection, connection.async(), true);
		}
		throw new IllegalStateException("unsupported Redis client " + client.getClass().getName());
	}

	RedisClusterAsyncCommands<byte[], byte[]> commands() {
		return commands;
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
