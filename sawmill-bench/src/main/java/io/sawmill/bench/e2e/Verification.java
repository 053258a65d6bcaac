package io.sawmill.bench.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Reads Redis back after a run, directly (not through the proxy): the key count must equal the
 * distinct keys written, and a sample of hashes must equal the last record written for their key,
 * with a TTL in (0, ttl].
 */
final class Verification {

	/** @param ok whether everything matched; {@code text} says what was checked and found */
	record Result(boolean ok, String text) {
	}

	static Result verify(String host, int port, Workload workload, long records, int sample, Duration ttl) {
		RedisClient client = RedisClient.create(RedisURI.create(host, port));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			RedisCommands<String, String> sync = connection.sync();
			long expectedKeys = workload.distinctKeys(records);
			long keys = sync.dbsize();
			RedisAsyncCommands<String, String> async = connection.async();
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
				Map<String, String> actual = hashes.get(i).get();
				long seconds = ttls.get(i).get();
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
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	static void flushAll(String host, int port) {
		RedisClient client = RedisClient.create(RedisURI.create(host, port));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			connection.sync().flushall();
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}
}
