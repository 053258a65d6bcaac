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

import org.jspecify.annotations.Nullable;

import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.netty.channel.Channel;
import io.sawmill.mapping.RedisWrite;

/**
 * Where each write of a batch goes on a Redis Cluster connection: the master that serves
 * its key's slot (CRC16 of the key or of its hash tag, Lettuce's {@code SlotHash}) in the
 * connection's topology as the batch is sent, and that master's channel. The writes of
 * one master form a group; a group whose master has no channel now (its connection is
 * being opened or reconnects), or whose slot no master serves, has a null channel, and
 * its writes go through Lettuce's API.
 * <p>
 * Built and read by the writing thread that sends the batch.
 */
final class SlotRoutes {

	private final int[] groupOf;

	private final List<@Nullable RedisClusterNode> masters;

	private final List<@Nullable Channel> channels;

	private SlotRoutes(int[] groupOf, List<@Nullable RedisClusterNode> masters, List<@Nullable Channel> channels) {
		this.groupOf = groupOf;
		this.masters = masters;
		this.channels = channels;
	}

	/** Routes every write by the connection's topology now. */
	static SlotRoutes of(SlotRouting connection, List<RedisWrite> writes) {
		int[] groupOf = new int[writes.size()];
		List<@Nullable RedisClusterNode> masters = new ArrayList<>(4);
		List<String> addresses = new ArrayList<>(4);
		List<@Nullable Channel> channels = new ArrayList<>(4);
		byte[] lastKey = null;
		RedisClusterNode last = null;
		int lastGroup = -1;
		for (int i = 0; i < groupOf.length; i++) {
			byte[] key = writes.get(i).key();
			// a record's writes share their key's array: one lookup
			if (key != lastKey || lastGroup < 0) {
				lastKey = key;
				RedisClusterNode master = connection.routeOf(key);
				if (master != last || lastGroup < 0) {
					last = master;
					lastGroup = groupOf(master, masters, addresses, channels, connection);
				}
			}
			groupOf[i] = lastGroup;
		}
		return new SlotRoutes(groupOf, masters, channels);
	}

	/**
	 * The group of {@code master}, added if new. Groups are told apart by address, not by
	 * node object: a topology refresh while the batch is routed replaces the objects, and
	 * two groups of one address would share one channel.
	 */
	private static int groupOf(@Nullable RedisClusterNode master, List<@Nullable RedisClusterNode> masters,
			List<String> addresses, List<@Nullable Channel> channels, SlotRouting connection) {
		for (int group = 0; group < masters.size(); group++) {
			if (masters.get(group) == master) {
				return group;
			}
		}
		String address = master == null ? "" : master.getUri().getHost() + ":" + master.getUri().getPort();
		int known = addresses.indexOf(address);
		if (known >= 0) {
			return known;
		}
		masters.add(master);
		addresses.add(address);
		channels.add(connection.masterChannel(master));
		return masters.size() - 1;
	}

	int groups() {
		return masters.size();
	}

	int groupOf(int index) {
		return groupOf[index];
	}

	/** The group's master, or null when no master served the slot. */
	@Nullable RedisClusterNode master(int group) {
		return masters.get(group);
	}

	/** The group's channel, or null when its writes go through Lettuce's API. */
	@Nullable Channel channel(int group) {
		return channels.get(group);
	}

}
