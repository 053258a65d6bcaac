package io.sawmill.it.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * Reads a scenario's outcome back from Redis over any connection (password, ACL user, TLS), which
 * the test kit's {@link RedisVerifier} cannot: every key's final hash and TTL, and how many HSETs
 * Redis executed in all ({@code INFO commandstats}), which counts the records written twice.
 */
final class RedisReadBack implements AutoCloseable {

	private final RedisClient client;
	private final StatefulRedisConnection<String, String> connection;

	private RedisReadBack(RedisClient client) {
		this.client = client;
		this.connection = client.connect();
	}

	static RedisReadBack of(RedisURI uri) {
		return of(uri, ClientOptions.create());
	}

	static RedisReadBack of(RedisURI uri, ClientOptions options) {
		RedisClient client = RedisClient.create(uri);
		client.setOptions(options);
		try {
			return new RedisReadBack(client);
		}
		catch (RuntimeException ex) {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			throw ex;
		}
	}

	/**
	 * Every key of {@code events} must hold the hash of the last version produced for it, with a
	 * TTL in (0, {@code ttl}].
	 */
	RedisVerifier.Result verify(VersionedEvents events, Duration ttl) throws Exception {
		RedisAsyncCommands<String, String> redis = connection.async();
		long verified = 0;
		long missing = 0;
		long wrongHash = 0;
		long wrongTtl = 0;
		List<String> examples = new ArrayList<>();
		for (long from = 0; from < events.keys(); from += 1000) {
			long to = Math.min(events.keys(), from + 1000);
			List<RedisFuture<Map<String, String>>> hashes = new ArrayList<>();
			List<RedisFuture<Long>> ttls = new ArrayList<>();
			for (long id = from; id < to; id++) {
				hashes.add(redis.hgetall(SampleEvents.key(id)));
				ttls.add(redis.ttl(SampleEvents.key(id)));
			}
			LettuceFutures.awaitAll(60, TimeUnit.SECONDS, hashes.toArray(RedisFuture[]::new));
			LettuceFutures.awaitAll(60, TimeUnit.SECONDS, ttls.toArray(RedisFuture[]::new));
			for (long id = from; id < to; id++) {
				Map<String, String> actual = hashes.get((int) (id - from)).get();
				long secondsLeft = ttls.get((int) (id - from)).get();
				if (actual.isEmpty()) {
					missing++;
					note(examples, SampleEvents.key(id) + " missing");
				}
				else if (!actual.equals(events.finalHash(id))) {
					wrongHash++;
					note(examples, SampleEvents.key(id) + " = " + actual.get("name") + ", expected "
							+ events.finalHash(id).get("name"));
				}
				else if (secondsLeft <= 0 || secondsLeft > ttl.toSeconds()) {
					wrongTtl++;
					note(examples, SampleEvents.key(id) + " ttl " + secondsLeft);
				}
				else {
					verified++;
				}
			}
		}
		return new RedisVerifier.Result(events.keys(), verified, missing, wrongHash, wrongTtl, List.copyOf(examples));
	}

	/** HSET commands Redis has executed since it started: one per record written, more when re-written. */
	long hsetCalls() {
		for (String line : connection.sync().info("commandstats").split("\r?\n")) {
			if (line.startsWith("cmdstat_hset:")) {
				for (String stat : line.substring("cmdstat_hset:".length()).split(",")) {
					if (stat.startsWith("calls=")) {
						return Long.parseLong(stat.substring("calls=".length()));
					}
				}
			}
		}
		return 0;
	}

	private static void note(List<String> examples, String problem) {
		if (examples.size() < 5) {
			examples.add(problem);
		}
	}

	@Override
	public void close() {
		connection.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}
}
