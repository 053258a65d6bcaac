package io.sawmill.bench.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import java.util.concurrent.TimeUnit;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

/**
 * Reads Redis back after a run, directly (not through the proxy): the key count (of a cluster, summed
 * over its masters) must equal the distinct keys written, and a sample of hashes must equal the last
 * record written for their key, with a TTL in (0, ttl].
 */
final class Verification {

	/** @param ok whether everything matched; {@code text} says what was checked and found */
	record Result(boolean ok, String text) {
	}

	private static final long TIMEOUT_SECONDS = 60;

	static Result verify(Endpoint endpoint, Workload workload, long records, int sample, Duration ttl) {
		try (Direct direct = new Direct(endpoint)) {
			RedisClusterAsyncCommands<String, String> async = direct.async();
			long expectedKeys = workload.distinctKeys(records);
			long keys = async.dbsize().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
			SplittableRandom random = new SplittableRandom(records);
			List<Long> ids = new ArrayList<>();
			List<RedisFuture<Map<String, String>>> hashes = new ArrayList<>();
			List<RedisFuture<Long>> ttls = new ArrayList<>();
			int checks = (int) Math.min(sample, expectedKeys);
			for (int i = 0; i < checks; i++) {
				long id = i == 0 ? expectedKeys - 1 : random.nextLong(expectedKeys);
				ids.add(id);
				hashes.add(async.hgetall(workload.key(id)));
				ttls.add(async.ttl(workload.key(id)));
			}
			int bad = 0;
			String example = "";
			for (int i = 0; i < checks; i++) {
				Map<String, String> actual = hashes.get(i).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
				long seconds = ttls.get(i).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
				Map<String, String> expected = workload.expectedHash(ids.get(i), records);
				if (!expected.equals(actual) || seconds <= 0 || seconds > ttl.toSeconds()) {
					if (bad++ == 0) {
						example = "; e.g. " + workload.key(ids.get(i)) + " = " + actual + " ttl " + seconds + ", expected "
								+ expected;
					}
				}
			}
			boolean ok = keys == expectedKeys && bad == 0;
			return new Result(ok, String.format(java.util.Locale.ROOT, "%s: %,d of %,d keys; %d of %d sampled hashes+TTLs right%s",
					ok ? "OK" : "FAILED", keys, expectedKeys, checks - bad, checks, example));
		}
		catch (Exception ex) {
			return new Result(false, "FAILED: could not read Redis back: " + ex);
		}
	}

	/** Empties the endpoint's server (every master of a cluster). */
	static void flushAll(Endpoint endpoint) {
		try (Direct direct = new Direct(endpoint)) {
			direct.async().flushall().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException("could not flush Redis at " + endpoint.directPorts() + ": " + ex, ex);
		}
	}

	/**
	 * A connection to the endpoint's servers without the proxy; for a cluster, Lettuce's cluster API,
	 * whose DBSIZE sums the masters' and whose FLUSHALL runs on each.
	 */
	private static final class Direct implements AutoCloseable {

		private final AbstractRedisClient client;
		private final StatefulConnection<String, String> connection;
		private final RedisClusterAsyncCommands<String, String> async;

		Direct(Endpoint endpoint) {
			if (endpoint.cluster()) {
				RedisClusterClient cluster = RedisClusterClient.create(endpoint.directPorts()
					.stream()
					.map(port -> RedisURI.create(endpoint.directHost(), port))
					.toList());
				client = cluster;
				var clusterConnection = connect(cluster, cluster::connect);
				connection = clusterConnection;
				async = clusterConnection.async();
			}
			else {
				RedisClient standalone = RedisClient
					.create(RedisURI.create(endpoint.directHost(), endpoint.directPorts().get(0)));
				client = standalone;
				var standaloneConnection = connect(standalone, standalone::connect);
				connection = standaloneConnection;
				async = standaloneConnection.async();
			}
		}

		/** Connects, or shuts the client down and rethrows. */
		private static <C> C connect(AbstractRedisClient client, java.util.function.Supplier<C> connect) {
			try {
				return connect.get();
			}
			catch (RuntimeException ex) {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
				throw ex;
			}
		}

		RedisClusterAsyncCommands<String, String> async() {
			return async;
		}

		@Override
		public void close() {
			connection.close();
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}
}
