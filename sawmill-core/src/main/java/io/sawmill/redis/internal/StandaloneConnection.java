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
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.netty.channel.Channel;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.RedisBatchWriter.Sent;
import io.sawmill.redis.internal.TransactionalBatchWriter.Transaction;

/**
 * A writer thread's connection to a standalone or Sentinel-managed master: one link,
 * which applies the commands in the order they were sent. A batch goes to its channel as
 * whole chunks ({@link ChannelSend}), through Lettuce's API only while the channel cannot
 * be reached ({@link EndpointSend}); transactions go to the channel
 * ({@link TransactionSend}).
 */
final class StandaloneConnection extends DedicatedConnection {

	private final StatefulRedisConnection<byte[], byte[]> connection;

	private final SendPaths paths;

	private StandaloneConnection(StatefulRedisConnection<byte[], byte[]> connection, SendPaths paths) {
		super(connection, connection.async());
		this.connection = connection;
		this.paths = paths;
	}

	static StandaloneConnection open(RedisClient client, SendPaths paths) {
		return new StandaloneConnection(client.connect(ByteArrayCodec.INSTANCE), paths);
	}

	@Override
	Sent send(List<RedisWrite> writes, long deadline) {
		Channel channel = EndpointChannel.of(connection);
		return channel != null ? paths.channel().send(channel, writes, deadline)
				: paths.endpoint().send(this, writes, deadline);
	}

	/**
	 * While the connection is reconnecting (its channel cannot be reached), every write
	 * fails at once.
	 */
	@Override
	Sent sendTransactions(List<Transaction> transactions, List<RedisWrite> writes, long deadline) {
		Channel channel = EndpointChannel.of(connection);
		if (channel == null) {
			PipelineResult failed = ConnectionFailures.failed(writes, 0, List.of(),
					new RedisConnectionException("the connection to Redis is reconnecting"));
			return () -> failed;
		}
		return paths.transactions().send(channel, transactions, deadline);
	}

	@Override
	public RedisClusterAsyncCommands<byte[], byte[]> commandsTo(@Nullable RedisClusterNode master, long deadline) {
		return commands();
	}

	@Override
	void loadFunction(String source, Duration timeout) {
		awaitLoads(List.of(commands().functionLoad(source, true)), System.nanoTime() + timeout.toNanos());
	}

	@Override
	boolean everyMasterReplicated() {
		return false;
	}

	@Override
	public boolean isDown(@Nullable RedisClusterNode master) {
		return !connection.isOpen();
	}

	@Override
	public void refreshTopology() {
		// one server: no topology to ask for
	}

}
