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

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.netty.channel.Channel;

/**
 * Fails at once, as transient, the replies a batch still awaits on a link known to be
 * down, instead of letting them wait for {@code sawmill.pipeline.timeout}: the standalone
 * channel went inactive, the connection is reconnecting, or the cluster master a command
 * was routed to has lost its link (killed, or partitioned away). The writer then replaces
 * the connection and the listener writes those records again, on Redis Cluster to the
 * master that serves the slot after a topology refresh (which a down master triggers).
 * <p>
 * A command failed here is marked done, so Lettuce does not send it again when it
 * reconnects: a write Redis may already have applied is repeated only by the listener,
 * which knows whether it may be ({@code RedisWrite#idempotent()}). A reconnect that wins
 * the race against the next check (at most {@link #CHECK_INTERVAL_NANOS} later) still
 * replays the commands Lettuce buffered.
 * <p>
 * Called on the writing thread while it awaits a batch, between slices of the wait.
 */
final class DeadLinks {

	/**
	 * How often a batch still waiting for replies checks its links (and, on a cluster,
	 * flushes again).
	 */
	static final long CHECK_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	/** Marks a link found up, in the map of one check. */
	private static final RedisConnectionException UP = new RedisConnectionException("up");

	private DeadLinks() {
	}

	/**
	 * Fails every slot still pending when the channel they were written to is no longer
	 * active.
	 */
	static void failIfInactive(Channel channel, ReplySlot[] slots) {
		if (channel.isActive()) {
			return;
		}
		RedisConnectionException lost = lost("the connection to Redis");
		for (ReplySlot slot : slots) {
			if (slot != null && !slot.isDone()) {
				slot.completeExceptionally(lost);
			}
		}
	}

	/**
	 * Fails every slot still pending that was written to the channel of a cluster master
	 * whose channel is no longer active or whose link is down, and has the topology
	 * refreshed then.
	 */
	static void failDown(Link connection, SlotRoutes routes, ReplySlot[] slots) {
		RedisConnectionException[] down = new RedisConnectionException[routes.groups()];
		boolean anyDown = false;
		for (int group = 0; group < down.length; group++) {
			Channel channel = routes.channel(group);
			// a group with a channel has its master
			RedisClusterNode master = routes.master(group);
			if (channel != null && master != null && (!channel.isActive() || connection.isDown(master))) {
				down[group] = lost("Redis master " + master.getUri());
				anyDown = true;
			}
		}
		if (!anyDown) {
			return;
		}
		for (ReplySlot slot : slots) {
			if (!slot.isDone() && down[routes.groupOf(slot.index())] != null) {
				slot.completeExceptionally(down[routes.groupOf(slot.index())]);
			}
		}
		connection.refreshTopology();
	}

	/**
	 * Fails every reply still pending whose link is down.
	 * @param routes the master each command was routed to (cluster), or null (standalone:
	 * one link)
	 */
	static void failDown(Link connection, List<RedisFuture<?>> replies,
			@Nullable RedisClusterNode @Nullable [] routes) {
		// per link: why it is down, or UP; a null route is the one link of a standalone
		// connection
		Map<RedisClusterNode, RedisConnectionException> links = new IdentityHashMap<>();
		boolean anyDown = false;
		for (int i = 0; i < replies.size(); i++) {
			RedisFuture<?> reply = replies.get(i);
			if (reply.isDone()) {
				continue;
			}
			RedisClusterNode route = routes == null ? null : routes[i];
			RedisConnectionException lost = links.computeIfAbsent(route, link -> !connection.isDown(link) ? UP
					: lost(link == null ? "the connection to Redis" : "Redis master " + link.getUri()));
			if (lost != UP) {
				anyDown = true;
				reply.toCompletableFuture().completeExceptionally(lost);
			}
		}
		if (anyDown && routes != null) {
			connection.refreshTopology();
		}
	}

	private static RedisConnectionException lost(String link) {
		return new RedisConnectionException(link + " is down: the command's reply will not arrive (written again)");
	}

}
