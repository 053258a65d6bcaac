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

import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.netty.channel.Channel;

/**
 * What the cluster's send path ({@link SlotSend}, {@link SlotRoutes}, and
 * {@link EndpointSend} and {@link ReplicaWait} on a cluster) needs of a
 * {@link ClusterConnection}: each key's master now, each master's channel, and the order
 * checks that redirects call for.
 */
interface SlotRouting extends Link {

	/** Connects to every master not yet connected, before commands are routed to it. */
	void connectMasters();

	/**
	 * The master a command to {@code key} is routed to now, or null when no master serves
	 * the slot.
	 */
	@Nullable RedisClusterNode routeOf(byte[] key);

	/**
	 * The channel of the connection to {@code master} that slot-routed commands use; null
	 * for a null master, or while that connection is being opened or is reconnecting.
	 * Never blocks.
	 */
	@Nullable Channel masterChannel(@Nullable RedisClusterNode master);

	/**
	 * Whether each key's writes were applied in the order they were queued (redirects can
	 * reorder them).
	 */
	KeyOrder keyOrder();

	/**
	 * The batches sent on this connection, to tell which writes sent again after a
	 * redirect were overtaken.
	 */
	SlotReplies.Sequence slotOrder();

	/**
	 * Asks the cluster for its topology again and waits for the answer until
	 * {@code deadline}; at most once a second (a refresh still running is waited for).
	 */
	void refreshTopologyNow(long deadline);

}
