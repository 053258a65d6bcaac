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
package io.sawmill.bench.e2e.workload;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.sawmill.testkit.LatencyProxy;
import io.sawmill.testkit.RedisClusterProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * Redis as a client sees it: one redis-server, directly or through a latency proxy at an
 * RTT (which the run closes), or a Redis Cluster of three masters, directly.
 *
 * @param host where a client connects: the proxy, the server, or a cluster's first master
 * (a seed)
 * @param port the port there
 * @param directHost the servers' host, for flushing and verifying without the proxy
 * @param directPorts the server's port, or every master's of a cluster
 * @param cluster whether this is a Redis Cluster
 */
public record Endpoint(double rtt, LatencyProxy proxy, String host, int port, String directHost,
		List<Integer> directPorts, boolean cluster) {

	public Endpoint {
		directPorts = List.copyOf(directPorts);
	}

	/**
	 * {@code redis} at {@code rtt}: directly when {@code proxy} is null, else through it.
	 */
	public static Endpoint standalone(double rtt, LatencyProxy proxy, RedisServerProcess redis) {
		return new Endpoint(rtt, proxy, proxy == null ? redis.host() : proxy.host(),
				proxy == null ? redis.port() : proxy.port(), redis.host(), List.of(redis.port()), false);
	}

	/** The masters of {@code cluster}, directly. */
	public static Endpoint cluster(RedisClusterProcess cluster) {
		return new Endpoint(0, null, cluster.host(), cluster.ports().get(0), cluster.host(), cluster.ports(), true);
	}

	/** "direct", "0.1 ms", "1 ms" or "cluster". */
	public String label() {
		return label(rtt, cluster);
	}

	/** "direct", "0.1 ms", "1 ms" or "cluster". */
	public static String label(double rttMs, boolean cluster) {
		return cluster ? "cluster" : rttLabel(rttMs);
	}

	/** "direct", "0.1 ms" or "1 ms". */
	public static String rttLabel(double rttMs) {
		return rttMs == 0 ? "direct"
				: (rttMs == Math.rint(rttMs) ? Integer.toString((int) rttMs) : Double.toString(rttMs)) + " ms";
	}

	/** The Spring Boot properties that point a service at this endpoint. */
	public Map<String, String> springProperties() {
		if (cluster) {
			return Map.of("spring.data.redis.cluster.nodes",
					directPorts.stream().map(p -> directHost + ":" + p).collect(Collectors.joining(",")));
		}
		return Map.of("spring.data.redis.host", host, "spring.data.redis.port", Integer.toString(port));
	}
}
