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

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.AbstractRedisClient;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.TransactionalBatchWriter.Keyspace;
import io.sawmill.redis.internal.TransactionalBatchWriter.Transaction;

/**
 * The default {@link RedisBatchWriter}: the native Lettuce client behind Spring Data
 * Redis' connection factory, one auto-flush-off connection per listener thread
 * ({@link ThreadConnections}), one flush per chunk.
 * <p>
 * Each thread's connection is of its Redis topology, and sends by that topology's path
 * ({@link DedicatedConnection}): on a standalone (or Sentinel-managed) connection
 * ({@link StandaloneConnection}) each chunk goes to the connection's channel as one
 * message ({@link ChannelSend}); on a cluster connection ({@link ClusterConnection}),
 * each chunk's commands are grouped by the master that serves their slot and each group
 * goes to that master's channel as one message ({@link SlotSend}), and only the commands
 * Redis redirected go again through Lettuce's cluster API. When Lettuce hides the
 * channels, commands are queued through its async API and flushed per chunk
 * ({@link EndpointSend}). {@link #sendTransactions} sends each partition's share of an
 * exactly-once batch as {@code MULTI … EXEC} on a standalone (or Sentinel-managed)
 * channel ({@link TransactionSend}), or on a cluster, each to the master of its slot
 * ({@link SlotTransactionSend}). With {@link PipelineConfig#waitForReplicas()}, a batch
 * counts as written once replicas confirmed it ({@link ReplicaWait}; on a cluster, per
 * master).
 * <p>
 * Connections are opened up front ({@link #open(int)}) and handed to threads on first
 * use, so the data path never connects. {@link #send} returns once the batch is on the
 * wire, so a thread can send its next batch before it awaits this one's replies. A
 * connection is replaced only after a timeout or a connection failure
 * ({@link ConnectionFailures}): its queued commands (the next batch's too) are then
 * cancelled by closing it, so a late command of a failed batch can never overwrite a
 * newer value. Replies that cannot arrive, because their link is known to be down, fail
 * at once rather than at the timeout ({@link DeadLinks}).
 * <p>
 * Public for the auto-configuration and sawmill-bench; not an API for users.
 */
public final class LettucePipelinedWriter implements TransactionalBatchWriter {

	private static final Logger log = LoggerFactory.getLogger(LettucePipelinedWriter.class);

	private final PipelineConfig config;

	private final boolean waitIfClusterReplicated;

	/**
	 * {@link #config}, or with one replica to wait for once {@link #open} found a
	 * replicated cluster.
	 */
	private volatile PipelineConfig replicas;

	private final ThreadConnections connections;

	private final FunctionLibraries functions;

	private final AttachedReplicas attachedReplicas = new AttachedReplicas(Clock.systemUTC());

	/** Which keys a transaction may hold: set by {@link #open}. */
	private volatile Keyspace keyspace = Keyspace.ONE_SERVER;

	public LettucePipelinedWriter(Supplier<AbstractRedisClient> client, PipelineConfig config) {
		this(client, config, false);
	}

	public LettucePipelinedWriter(Supplier<AbstractRedisClient> client, PipelineConfig config,
			boolean waitIfClusterReplicated) {
		this(client, config, waitIfClusterReplicated, List.of());
	}

	/**
	 * @param waitIfClusterReplicated whether, when {@code config} waits for no replica
	 * and Redis is a Cluster whose every master has a replica when the writer
	 * {@link #open opens}, each batch waits for one replica anyway: a replica can then
	 * take a master over, and what the master alone acknowledged would not survive that
	 * (docs/reliability.md)
	 * @param functionLibraries the Lua sources of the Redis Function libraries that
	 * writes call ({@code #!lua name=…}): loaded on every master when the writer
	 * {@link #open opens}, and again when a write's reply says its function is not found
	 */
	public LettucePipelinedWriter(Supplier<AbstractRedisClient> client, PipelineConfig config,
			boolean waitIfClusterReplicated, List<String> functionLibraries) {
		this.config = config;
		this.replicas = config;
		this.waitIfClusterReplicated = waitIfClusterReplicated;
		this.connections = new ThreadConnections(client, SendPaths.of(config));
		this.functions = new FunctionLibraries(functionLibraries);
	}

	/**
	 * Opens one connection per listener thread now, so that a Redis that cannot be
	 * reached fails start-up, and loads the Function libraries.
	 * @throws IllegalStateException when a library cannot be loaded (e.g. Redis older
	 * than 7)
	 */
	@Override
	public void open(int threads) {
		connections.open(threads);
		keyspace = connections.ownOrIdle().get(0) instanceof ClusterConnection ? Keyspace.CLUSTER : Keyspace.ONE_SERVER;
		if (!functions.isEmpty()) {
			functions.load(connections.ownOrIdle().get(0), config.timeout());
		}
		if (waitIfClusterReplicated && config.waitForReplicas() == 0
				&& connections.ownOrIdle().get(0).everyMasterReplicated()) {
			replicas = PipelineConfig.from(config).waitForReplicas(1).build();
			log.info(
					"Every master of the Redis Cluster has a replica: each batch waits for 1 replica on each master it "
							+ "wrote to before its offsets are committed (sawmill.pipeline.wait-for-replicas)");
		}
	}

	/**
	 * How many replicas confirm each batch: as configured, or as decided by {@link #open}
	 * on a replicated cluster.
	 */
	public int waitForReplicas() {
		return replicas.waitForReplicas();
	}

	/**
	 * The masters found with fewer replicas attached than {@link #waitForReplicas()}
	 * (sawmill.pipeline.replica-shortfall).
	 */
	public ReplicaShortfalls replicaShortfalls() {
		return attachedReplicas;
	}

	@Override
	public PipelineResult write(List<RedisWrite> writes) {
		return send(writes).await();
	}

	/**
	 * Puts the batch on the wire. Its replies land while the caller does other work (maps
	 * and sends the next batch); {@link Sent#await} collects them, and replaces the
	 * connection when it failed.
	 */
	@Override
	public Sent send(List<RedisWrite> writes) {
		if (writes.isEmpty()) {
			PipelineResult none = new PipelineResult(0, 0, List.of());
			return () -> none;
		}
		return sendOn(writes, (connection, deadline) -> connection.send(writes, deadline));
	}

	/**
	 * Puts the transactions on the wire: on a standalone or Sentinel-managed connection
	 * ({@link TransactionSend}), or each to its slot's master on a cluster
	 * ({@link SlotTransactionSend}); while a link is reconnecting, the writes routed to
	 * it fail at once.
	 */
	@Override
	public Sent sendTransactions(List<Transaction> transactions) {
		List<RedisWrite> writes = new ArrayList<>();
		transactions.forEach(transaction -> writes.addAll(transaction.writes()));
		if (writes.isEmpty()) {
			PipelineResult none = new PipelineResult(0, 0, List.of());
			return () -> none;
		}
		return sendOn(writes, (connection, deadline) -> connection.sendTransactions(transactions, writes, deadline));
	}

	/**
	 * The writes sent by {@code send} on the calling thread's connection, waiting for
	 * replicas as configured.
	 */
	private Sent sendOn(List<RedisWrite> writes, BiFunction<DedicatedConnection, Long, Sent> send) {
		DedicatedConnection connection;
		try {
			connection = connections.forCurrentThread();
		}
		catch (RuntimeException ex) {
			PipelineResult failed = ConnectionFailures.failed(writes, 0, List.of(), ex);
			return () -> failed;
		}
		long deadline = System.nanoTime() + config.timeout().toNanos();
		Sent batch = send.apply(connection, deadline);
		PipelineConfig waiting = replicas;
		Sent sent = waiting.waitForReplicas() > 0
				? ReplicaWait.after(batch, connection, writes, waiting, attachedReplicas, deadline) : batch;
		return new Sent() {
			@Override
			public PipelineResult await() {
				PipelineResult result = sent.await();
				if (!result.succeeded() && ConnectionFailures.isConnectionFailure(result.failures())) {
					connections.replace(connection);
				}
				else if (!result.succeeded()) {
					functions.reloadIfMissing(connection, result, config.timeout());
				}
				return result;
			}

			@Override
			public long lastReplyNanos() {
				return sent.lastReplyNanos();
			}
		};
	}

	@Override
	public Keyspace keyspace() {
		return keyspace;
	}

	/**
	 * {@code MGET} on the calling thread's connection, after everything the thread sent
	 * on it. When the connection does not answer in time it is replaced, as after a
	 * failed batch.
	 */
	@Override
	public List<byte[]> read(List<byte[]> keys) {
		if (keys.isEmpty()) {
			return List.of();
		}
		DedicatedConnection connection = connections.forCurrentThread();
		try {
			return connection.read(keys, config.timeout());
		}
		catch (RuntimeException ex) {
			connections.replace(connection);
			throw ex;
		}
	}

	/**
	 * PINGs the calling thread's connection if it has one, otherwise every connection not
	 * yet handed to a thread, without handing any to the caller (a start-up check on the
	 * main thread must not take a listener thread's connection).
	 */
	@Override
	public void ping() {
		for (DedicatedConnection connection : connections.ownOrIdle()) {
			connection.ping(config.timeout());
		}
	}

	@Override
	public void close() {
		connections.close();
	}

}
