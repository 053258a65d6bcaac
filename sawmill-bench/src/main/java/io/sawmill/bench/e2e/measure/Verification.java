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
package io.sawmill.bench.e2e.measure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.sawmill.bench.e2e.workload.Capability;
import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.bench.e2e.workload.Workload;

/**
 * Reads Redis back after a run, directly (not through the proxy): the key count (of a
 * cluster, summed over its masters) must equal the distinct keys written, and a sample of
 * hashes must equal the last record written for their key, with a TTL in (0, ttl]. The
 * sample always holds the key written by the most records (with hot keys, the one a stale
 * write would most likely be seen on) and the highest id written.
 */
public final class Verification {

	/**
	 * @param ok whether everything matched; {@code text} says what was checked and found
	 */
	public record Result(boolean ok, String text) {
	}

	private static final long TIMEOUT_SECONDS = 60;

	public static Result verify(Endpoint endpoint, Workload workload, long records, int sample, Duration ttl) {
		return verify(endpoint, workload, records, sample, ttl, Capability.Extras.NONE);
	}

	public static Result verify(Endpoint endpoint, Workload workload, long records, int sample, Duration ttl,
			Capability.Extras extras) {
		try (Direct direct = new Direct(endpoint)) {
			RedisClusterAsyncCommands<String, String> async = direct.async();
			Workload.Written written = workload.written(records);
			long expectedKeys = written.keys();
			long keys = async.dbsize().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
			String others = "";
			if (extras == Capability.Extras.BOOKKEEPING && keys != expectedKeys) {
				KeyCount count = countKeys(async, workload);
				keys = count.workload();
				others = count.others() == 0 ? ""
						: String.format(Locale.ROOT, " (+%,d other keys, e.g. %s)", count.others(), count.example());
			}
			List<Long> ids = sampleIds(written, sample);
			List<RedisFuture<Map<String, String>>> hashes = new ArrayList<>();
			List<RedisFuture<Long>> ttls = new ArrayList<>();
			int checks = ids.size();
			for (long id : ids) {
				hashes.add(async.hgetall(workload.key(id)));
				ttls.add(async.ttl(workload.key(id)));
			}
			int bad = 0;
			int withOtherFields = 0;
			String example = "";
			String otherField = "";
			for (int i = 0; i < checks; i++) {
				Map<String, String> actual = hashes.get(i).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
				long seconds = ttls.get(i).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
				Map<String, String> expected = workload.expectedHash(ids.get(i), records);
				if (extras == Capability.Extras.BOOKKEEPING && !expected.keySet().containsAll(actual.keySet())) {
					withOtherFields++;
					otherField = actual.keySet()
						.stream()
						.filter(field -> !expected.containsKey(field))
						.findFirst()
						.orElseThrow();
					actual = new LinkedHashMap<>(actual);
					actual.keySet().retainAll(expected.keySet());
				}
				if (!expected.equals(actual) || seconds <= 0 || seconds > ttl.toSeconds()) {
					if (bad++ == 0) {
						example = "; e.g. " + workload.key(ids.get(i)) + " = " + actual + " ttl " + seconds
								+ ", expected " + expected;
					}
				}
			}
			boolean ok = keys == expectedKeys && bad == 0;
			String fields = withOtherFields == 0 ? ""
					: String.format(Locale.ROOT, " (%d with other fields, e.g. %s)", withOtherFields, otherField);
			return new Result(ok,
					String.format(Locale.ROOT, "%s: %,d of %,d keys%s; %d of %d sampled hashes+TTLs right%s%s",
							ok ? "OK" : "FAILED", keys, expectedKeys, others, checks - bad, checks, fields, example));
		}
		catch (Exception ex) {
			return new Result(false, "FAILED: could not read Redis back: " + ex);
		}
	}

	/**
	 * The ids whose keys are read back: up to {@code sample} of those written, always the
	 * hottest and the highest first, then drawn at random (seeded by the record count, so
	 * a run checks the same ids every time), with repeats.
	 */
	static List<Long> sampleIds(Workload.Written written, int sample) {
		SplittableRandom random = new SplittableRandom(written.records());
		int keys = (int) written.keys();
		List<Long> ids = new ArrayList<>();
		for (int i = 0; i < Math.min(sample, keys); i++) {
			ids.add(i == 0 ? written.hottest() : i == 1 ? written.id(keys - 1) : written.id(random.nextInt(keys)));
		}
		return ids;
	}

	/** Keys of the workload and others, and one of the others. */
	private record KeyCount(long workload, long others, String example) {
	}

	private static KeyCount countKeys(RedisClusterAsyncCommands<String, String> async, Workload workload)
			throws Exception {
		long ours = 0;
		long others = 0;
		String example = "";
		KeyScanCursor<String> cursor = async.scan(ScanArgs.Builder.limit(1_000)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
		while (true) {
			for (String key : cursor.getKeys()) {
				if (workload.isKey(key)) {
					ours++;
				}
				else if (others++ == 0) {
					example = key;
				}
			}
			if (cursor.isFinished()) {
				return new KeyCount(ours, others, example);
			}
			cursor = async.scan(cursor, ScanArgs.Builder.limit(1_000)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
		}
	}

	/** Empties the endpoint's server (every master of a cluster). */
	public static void flushAll(Endpoint endpoint) {
		try (Direct direct = new Direct(endpoint)) {
			direct.async().flushall().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException("could not flush Redis at " + endpoint.directPorts() + ": " + ex, ex);
		}
	}

	/**
	 * A connection to the endpoint's servers without the proxy; for a cluster, Lettuce's
	 * cluster API, whose DBSIZE sums the masters' and whose FLUSHALL runs on each.
	 */
	static final class Direct implements AutoCloseable {

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
