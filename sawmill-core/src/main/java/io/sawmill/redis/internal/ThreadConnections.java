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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;

/**
 * Lends each writing thread a {@link DedicatedConnection} of its own, for as long as the
 * thread lives. Connections are opened up front ({@link #open}) and handed out on first
 * use, so the data path never connects; a thread's connection is taken back when the
 * thread is gone and handed to the next one, and replaced only after a failure left it in
 * an unknown state ({@link #replace}).
 * <p>
 * Thread-safe. {@link #forCurrentThread} reads without locking once the thread has its
 * connection.
 */
final class ThreadConnections implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(ThreadConnections.class);

	private final Supplier<AbstractRedisClient> client;

	private final SendPaths paths;

	private final List<DedicatedConnection> idle = new ArrayList<>();

	private final Map<Thread, DedicatedConnection> byThread = new ConcurrentHashMap<>();

	ThreadConnections(Supplier<AbstractRedisClient> client, SendPaths paths) {
		this.client = client;
		this.paths = paths;
	}

	/** Opens connections until there are {@code connections}, lent or not. */
	synchronized void open(int connections) {
		while (idle.size() + byThread.size() < connections) {
			idle.add(open(client.get()));
		}
	}

	/**
	 * The calling thread's connection, lent now if it has none (opened if none is idle).
	 */
	DedicatedConnection forCurrentThread() {
		DedicatedConnection connection = byThread.get(Thread.currentThread());
		if (connection != null) {
			return connection;
		}
		synchronized (this) {
			byThread.entrySet().removeIf(owned -> !owned.getKey().isAlive() && idle.add(owned.getValue()));
			connection = idle.isEmpty() ? open(client.get()) : idle.remove(idle.size() - 1);
			byThread.put(Thread.currentThread(), connection);
			return connection;
		}
	}

	/**
	 * The calling thread's connection if it has one, otherwise every connection not lent
	 * yet (one is opened if there is none), without lending any to the caller: a start-up
	 * check on the main thread must not take a listener thread's connection.
	 */
	synchronized List<DedicatedConnection> ownOrIdle() {
		DedicatedConnection own = byThread.get(Thread.currentThread());
		if (own != null) {
			return List.of(own);
		}
		if (idle.isEmpty()) {
			idle.add(open(client.get()));
		}
		return List.copyOf(idle);
	}

	/**
	 * Takes the calling thread's broken connection back and closes it, which cancels
	 * whatever it still had queued; the thread's next batch opens a new one.
	 */
	void replace(DedicatedConnection broken) {
		byThread.remove(Thread.currentThread(), broken);
		// on a cluster, the next connection routes by a topology that knows the master a
		// failover promoted
		broken.refreshTopology();
		try {
			broken.close();
		}
		catch (RuntimeException ex) {
			log.debug("Closing a failed Redis connection failed", ex);
		}
	}

	@Override
	public synchronized void close() {
		idle.forEach(ThreadConnections::closeQuietly);
		idle.clear();
		byThread.values().forEach(ThreadConnections::closeQuietly);
		byThread.clear();
	}

	/** A connection of the client's topology, sending by its path. */
	private DedicatedConnection open(AbstractRedisClient client) {
		if (client instanceof RedisClusterClient cluster) {
			return ClusterConnection.open(cluster, paths);
		}
		if (client instanceof RedisClient standalone) {
			return StandaloneConnection.open(standalone, paths);
		}
		throw new IllegalStateException("unsupported Redis client " + client.getClass().getName());
	}

	/** At shutdown the client may already be gone, closing its connections with it. */
	private static void closeQuietly(DedicatedConnection connection) {
		if (connection.isOpen()) {
			connection.close();
		}
	}

}
