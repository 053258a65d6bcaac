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
package io.sawmill.doctor.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConnection;
import org.springframework.data.redis.connection.RedisServer;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Asks the Redis masters of a connection factory what the checks need, through the
 * factory's own connections (and so its credentials and TLS): the one master of a
 * standalone or Sentinel-managed Redis, or every master of a Cluster. Read-only: PING,
 * INFO and CONFIG GET.
 */
final class RedisInspection {

	private RedisInspection() {
	}

	static List<RedisNodeFacts> inspect(LettuceConnectionFactory factory, int pings) {
		if (factory.isClusterAware()) {
			List<RedisNodeFacts> masters = new ArrayList<>();
			try (RedisClusterConnection cluster = factory.getClusterConnection()) {
				for (RedisClusterNode node : cluster.clusterGetNodes()) {
					if (node.isMaster()) {
						masters.add(facts(node.asString(), node.getHost(), pings, () -> cluster.ping(node),
								section -> cluster.serverCommands().info(node, section),
								name -> cluster.serverCommands().getConfig(node, name)));
					}
				}
			}
			return masters;
		}
		String host = factory.isRedisSentinelAware() ? sentinelMaster(factory) : factory.getHostName();
		String name = factory.isRedisSentinelAware() ? "master " + sentinelMasterName(factory) + " at " + host
				: host + ":" + factory.getPort();
		try (RedisConnection connection = factory.getConnection()) {
			return List
				.of(facts(name, host, pings, connection::ping, section -> connection.serverCommands().info(section),
						parameter -> connection.serverCommands().getConfig(parameter)));
		}
	}

	private static @Nullable String sentinelMaster(LettuceConnectionFactory factory) {
		String master = sentinelMasterName(factory);
		if (master == null) {
			return null;
		}
		try (RedisSentinelConnection sentinel = factory.getSentinelConnection()) {
			return sentinel.masters()
				.stream()
				.filter(server -> master.equals(server.getName()))
				.map(RedisServer::getHost)
				.findFirst()
				.orElse(master);
		}
		catch (Exception ex) {
			return master;
		}
	}

	/**
	 * The name of the master a Sentinel-aware factory connects to: the factory has a
	 * Sentinel configuration, and Lettuce needs its master to connect at all.
	 */
	private static @Nullable String sentinelMasterName(LettuceConnectionFactory factory) {
		RedisSentinelConfiguration sentinel = Objects.requireNonNull(factory.getSentinelConfiguration(),
				"a Sentinel-aware factory has a Sentinel configuration");
		return Objects.requireNonNull(sentinel.getMaster(), "a Sentinel configuration names its master").getName();
	}

	private static RedisNodeFacts facts(String name, @Nullable String host, int pings, Supplier<String> ping,
			Function<String, Properties> info, Function<String, Properties> config) {
		ping.get(); // not counted: opens the connection and warms up the code path
		List<Duration> roundTrips = new ArrayList<>();
		for (int i = 0; i < pings; i++) {
			long started = System.nanoTime();
			ping.get();
			roundTrips.add(Duration.ofNanos(System.nanoTime() - started));
		}
		Map<String, String> fields = new HashMap<>();
		for (String section : RedisNodeFacts.SECTIONS) {
			try {
				info.apply(section)
					.forEach((key, value) -> fields.put(String.valueOf(key), String.valueOf(value).trim()));
			}
			catch (RuntimeException refused) {
				// INFO not allowed for this ACL user: the findings that need the section
				// say UNKNOWN
			}
		}
		if ("cluster".equals(fields.get("redis_mode"))) {
			try {
				Optional.ofNullable(config.apply(RedisNodeFacts.CLUSTER_NODE_TIMEOUT))
					.map(p -> p.getProperty(RedisNodeFacts.CLUSTER_NODE_TIMEOUT))
					.ifPresent(timeout -> fields.put(RedisNodeFacts.CLUSTER_NODE_TIMEOUT, timeout.trim()));
			}
			catch (RuntimeException refused) {
				// CONFIG renamed or not allowed for this user: no grace finding
			}
		}
		Optional<String> save;
		try {
			save = Optional.ofNullable(config.apply("save")).map(p -> p.getProperty("save"));
		}
		catch (RuntimeException refused) {
			save = Optional.empty(); // CONFIG renamed or not allowed for this user
		}
		return new RedisNodeFacts(name, host, roundTrips, fields, save);
	}

}
