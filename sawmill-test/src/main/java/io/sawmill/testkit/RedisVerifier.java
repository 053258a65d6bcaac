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
package io.sawmill.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisHashAsyncCommands;
import io.lettuce.core.api.async.RedisKeyAsyncCommands;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;

/**
 * Reads Redis back after a run: for every expected key, the whole hash (HGETALL) and its
 * TTL, pipelined a thousand keys at a time, and reports what matched. On a Redis Cluster
 * connection each key is read from the master that serves its slot.
 */
public final class RedisVerifier {

	private RedisVerifier() {
	}

	/**
	 * @param verified keys whose hash equals the expected one and whose TTL is in (0,
	 * maxTtl]
	 * @param missing keys that do not exist
	 * @param wrongHash keys whose fields differ
	 * @param wrongTtl keys without the expected TTL
	 * @param examples a few problems, for the failure message
	 */
	public record Result(long expected, long verified, long missing, long wrongHash, long wrongTtl,
			List<String> examples) {

		public boolean allVerified() {
			return verified == expected;
		}

		@Override
		public String toString() {
			return "verified " + verified + " of " + expected + " records (missing " + missing + ", wrong hash "
					+ wrongHash + ", wrong TTL " + wrongTtl + ")" + (examples.isEmpty() ? "" : " e.g. " + examples);
		}
	}

	/**
	 * @param ids how many ids, 0 until {@code ids} exclusive
	 * @param key the key of an id
	 * @param expected the hash of an id
	 * @param maxTtl the configured TTL; {@code null} when keys must have no TTL
	 */
	public static Result verify(String host, int port, long ids, LongFunction<String> key,
			LongFunction<Map<String, String>> expected, Duration maxTtl) {
		RedisClient client = RedisClient.create(RedisURI.create(host, port));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			return verify(connection, ids, key, expected, maxTtl);
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	/**
	 * The same check on a connection the caller opened (e.g. with credentials or TLS).
	 */
	public static Result verify(StatefulRedisConnection<String, String> connection, long ids, LongFunction<String> key,
			LongFunction<Map<String, String>> expected, Duration maxTtl) {
		return verify(connection.async(), ids, key, expected, maxTtl);
	}

	/**
	 * The same check on a Redis Cluster: the connection routes each key to the master
	 * that serves its slot (refresh the client's partitions first if slots moved since it
	 * connected).
	 */
	public static Result verify(StatefulRedisClusterConnection<String, String> connection, long ids,
			LongFunction<String> key, LongFunction<Map<String, String>> expected, Duration maxTtl) {
		return verify(connection.async(), ids, key, expected, maxTtl);
	}

	private static <R extends RedisHashAsyncCommands<String, String> & RedisKeyAsyncCommands<String, String>> Result verify(
			R redis, long ids, LongFunction<String> key, LongFunction<Map<String, String>> expected, Duration maxTtl) {
		try {
			long verified = 0;
			long missing = 0;
			long wrongHash = 0;
			long wrongTtl = 0;
			List<String> examples = new ArrayList<>();
			for (long from = 0; from < ids; from += 1000) {
				long to = Math.min(ids, from + 1000);
				List<RedisFuture<Map<String, String>>> hashes = new ArrayList<>();
				List<RedisFuture<Long>> ttls = new ArrayList<>();
				for (long id = from; id < to; id++) {
					hashes.add(redis.hgetall(key.apply(id)));
					ttls.add(redis.ttl(key.apply(id)));
				}
				for (long id = from; id < to; id++) {
					int i = (int) (id - from);
					Map<String, String> actual;
					long ttl;
					try {
						actual = hashes.get(i).get(60, TimeUnit.SECONDS);
						ttl = ttls.get(i).get(60, TimeUnit.SECONDS);
					}
					catch (java.util.concurrent.ExecutionException notAHash) {
						wrongHash++;
						note(examples, key.apply(id) + ": " + notAHash.getCause().getMessage());
						continue;
					}
					if (actual.isEmpty()) {
						missing++;
						note(examples, key.apply(id) + " missing");
					}
					else if (!actual.equals(expected.apply(id))) {
						wrongHash++;
						note(examples, key.apply(id) + " = " + actual);
					}
					else if (maxTtl == null ? ttl != -1 : (ttl <= 0 || ttl > maxTtl.toSeconds())) {
						wrongTtl++;
						note(examples, key.apply(id) + " ttl " + ttl);
					}
					else {
						verified++;
					}
				}
			}
			return new Result(ids, verified, missing, wrongHash, wrongTtl, List.copyOf(examples));
		}
		catch (Exception ex) {
			throw new IllegalStateException("could not read Redis back: " + ex.getMessage(), ex);
		}
	}

	private static void note(List<String> examples, String problem) {
		if (examples.size() < 5) {
			examples.add(problem);
		}
	}

}
