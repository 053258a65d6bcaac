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

import org.jspecify.annotations.Nullable;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

/**
 * What a send path needs of the connection it sends on, whatever the topology: the
 * commands to queue on, the flush, and whether a link is down. A
 * {@link DedicatedConnection} is one; the send paths ({@link EndpointSend},
 * {@link DeadLinks}, {@link ReplicaWait}) see it only through this, so the connection
 * that owns them is not also their dependency.
 * <p>
 * A standalone or Sentinel-managed connection has one link, passed as a null master.
 */
interface Link {

	/** The commands that queue on this connection (routed per slot on a cluster). */
	RedisClusterAsyncCommands<byte[], byte[]> commands();

	/** Writes what is queued. */
	void flush();

	/**
	 * The commands of the link that carried the writes routed to {@code master}, so that
	 * a command sent on it follows them; null when that link is not open by
	 * {@code deadline}.
	 */
	@Nullable RedisClusterAsyncCommands<byte[], byte[]> commandsTo(@Nullable RedisClusterNode master, long deadline);

	/**
	 * Whether the link to {@code master} is known to be down. Never blocks: a connection
	 * still being opened counts as up.
	 */
	boolean isDown(@Nullable RedisClusterNode master);

	/**
	 * Asks for the topology again, at most once a second, so that commands go to the
	 * master a failover promoted; does not wait for the answer. Nothing to ask on a
	 * standalone connection.
	 */
	void refreshTopology();

}
