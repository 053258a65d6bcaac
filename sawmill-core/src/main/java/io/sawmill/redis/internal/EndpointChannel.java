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

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;

import io.lettuce.core.Delegating;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.protocol.DefaultEndpoint;
import io.netty.channel.Channel;

/**
 * The Netty channel under a standalone Lettuce connection, so that a whole chunk of
 * commands can be written as one message: Lettuce's {@code CommandHandler} takes a list
 * of commands as one write (one task on the event loop, one buffer, one flush), where the
 * endpoint's own flush writes — and promises, and schedules — each command on its own.
 * <p>
 * Lettuce has no public accessor for the channel; it is read from
 * {@link DefaultEndpoint}'s {@code channel} field, the one the endpoint itself writes to.
 * If a Lettuce version changes that, {@link #of} returns null and the writer queues
 * commands through the endpoint ({@link EndpointSend}) — slower, never wrong.
 * {@code LettucePipelinedWriterTests} fails on such an upgrade.
 */
final class EndpointChannel {

	private static final Logger log = LoggerFactory.getLogger(EndpointChannel.class);

	private static final @Nullable VarHandle CHANNEL = channelField();

	/** Package-private in Lettuce; a subclass that adds only what happens on close. */
	private static final String CLUSTER_NODE_ENDPOINT = "io.lettuce.core.cluster.ClusterNodeEndpoint";

	private EndpointChannel() {
	}

	private static @Nullable VarHandle channelField() {
		try {
			return MethodHandles.privateLookupIn(DefaultEndpoint.class, MethodHandles.lookup())
				.findVarHandle(DefaultEndpoint.class, "channel", Channel.class);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			log.warn("Cannot reach the channel of Lettuce's DefaultEndpoint ({}); batches are written command by "
					+ "command through the endpoint, which is slower", ex.toString());
			return null;
		}
	}

	/**
	 * Whether this Lettuce version lets the writer write chunks to the channel directly.
	 */
	static boolean available() {
		return CHANNEL != null;
	}

	/**
	 * The active channel of a standalone connection, or null: for a cluster connection
	 * (whose commands must be routed by slot), while reconnecting, or when the channel
	 * cannot be reached.
	 */
	static @Nullable Channel of(StatefulConnection<?, ?> connection) {
		return of(connection, false);
	}

	/**
	 * The active channel of a Redis Cluster master's connection (one a cluster connection
	 * routes that master's slots to), or null while it reconnects or when the channel
	 * cannot be reached. Its endpoint is Lettuce's {@code ClusterNodeEndpoint}, a
	 * {@link DefaultEndpoint} that, when the connection is closed, hands the commands it
	 * still buffers to the cluster connection to be routed again; commands written to the
	 * channel itself are Lettuce's like any other. Lettuce redirects nothing written
	 * there: a {@code MOVED} or {@code ASK} comes back as the command's error reply.
	 */
	static @Nullable Channel ofMaster(StatefulConnection<?, ?> connection) {
		return of(connection, true);
	}

	private static @Nullable Channel of(StatefulConnection<?, ?> connection, boolean clusterNode) {
		if (CHANNEL == null || !(connection instanceof RedisChannelHandler<?, ?> handler)) {
			return null;
		}
		RedisChannelWriter writer = handler.getChannelWriter();
		while (writer instanceof Delegating<?> delegating && !(writer instanceof DefaultEndpoint)) {
			if (!(delegating.getDelegate() instanceof RedisChannelWriter inner)) {
				return null;
			}
			writer = inner;
		}
		if (!(writer instanceof DefaultEndpoint endpoint) || (endpoint.getClass() != DefaultEndpoint.class
				&& !(clusterNode && CLUSTER_NODE_ENDPOINT.equals(endpoint.getClass().getName())))) {
			return null;
		}
		Channel channel = (Channel) CHANNEL.getVolatile(endpoint);
		return channel != null && channel.isActive() ? channel : null;
	}

}
