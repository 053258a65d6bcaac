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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.RedisBatchWriter.Sent;
import io.sawmill.redis.internal.TransactionalBatchWriter.Transaction;

/**
 * A connection owned by one writer thread, with auto-flush off so that commands queue
 * until the writer flushes them. One type per Redis topology, each owning its send path:
 * {@link StandaloneConnection} (a standalone or Sentinel-managed master) and
 * {@link ClusterConnection} (a Redis Cluster, routed per slot). What both do (PING, MGET,
 * flush, close) is here.
 * <p>
 * Used by one writer thread at a time ({@link ThreadConnections}).
 */
abstract sealed class DedicatedConnection implements Link, AutoCloseable
		permits StandaloneConnection, ClusterConnection {

	private final StatefulConnection<byte[], byte[]> connection;

	private final RedisClusterAsyncCommands<byte[], byte[]> commands;

	DedicatedConnection(StatefulConnection<byte[], byte[]> connection,
			RedisClusterAsyncCommands<byte[], byte[]> commands) {
		this.connection = connection;
		this.commands = commands;
		connection.setAutoFlushCommands(false);
	}

	/**
	 * Puts a batch's writes on the wire by this topology's path; the returned batch
	 * awaits their replies until {@code deadline}.
	 */
	abstract Sent send(List<RedisWrite> writes, long deadline);

	/**
	 * Puts transactions on the wire by this topology's path, {@code writes} being their
	 * writes concatenated.
	 */
	abstract Sent sendTransactions(List<Transaction> transactions, List<RedisWrite> writes, long deadline);

	/**
	 * {@code FUNCTION LOAD REPLACE source} on the master, or on every master of a cluster
	 * (a function is called on the master of its key's slot), and waits for the replies.
	 * @throws IllegalStateException when a master did not load it within {@code timeout}
	 */
	abstract void loadFunction(String source, Duration timeout);

	/**
	 * Whether every master that serves slots has at least one replica in the topology:
	 * then a replica can take a master over, and a batch should wait for one. False on a
	 * standalone connection, whose topology Sawmill does not see.
	 */
	abstract boolean everyMasterReplicated();

	@Override
	public RedisClusterAsyncCommands<byte[], byte[]> commands() {
		return commands;
	}

	/**
	 * Sends PING and waits for its answer; throws when none comes within {@code timeout}.
	 */
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
			throw new IllegalStateException("Redis did not answer PING within " + timeout + ": " + causeOf(ex), ex);
		}
	}

	/**
	 * {@code MGET keys} and waits for the reply; it goes after every command sent on this
	 * connection before it.
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
			Throwable cause = causeOf(ex);
			throw new IllegalStateException("Redis did not answer MGET within " + timeout + ": " + cause, cause);
		}
	}

	/**
	 * Flushes, then waits for every {@code FUNCTION LOAD} reply until {@code deadline}.
	 * @throws IllegalStateException when one did not succeed in time
	 */
	void awaitLoads(List<RedisFuture<String>> loads, long deadline) {
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
				Throwable cause = causeOf(ex);
				throw new IllegalStateException("FUNCTION LOAD failed: " + cause.getMessage(), cause);
			}
		}
	}

	/**
	 * What a failed wait for a reply failed with: the command's own error, or the
	 * timeout.
	 */
	static Throwable causeOf(Exception ex) {
		return ex instanceof ExecutionException && ex.getCause() != null ? ex.getCause() : ex;
	}

	@Override
	public void flush() {
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
