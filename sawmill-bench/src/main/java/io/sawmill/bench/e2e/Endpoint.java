package io.sawmill.bench.e2e;

import io.sawmill.testkit.LatencyProxy;
import io.sawmill.testkit.RedisServerProcess;

/** Redis as a client sees it at one RTT: directly, or through a latency proxy (which the run closes). */
record Endpoint(double rtt, LatencyProxy proxy, String host, int port) {

	Endpoint(double rtt, LatencyProxy proxy, RedisServerProcess redis) {
		this(rtt, proxy, proxy == null ? redis.host() : proxy.host(), proxy == null ? redis.port() : proxy.port());
	}
}
