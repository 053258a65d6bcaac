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
package io.sawmill.it.fault;

import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * Reads a scenario's outcome back from Redis over any connection (password, ACL user,
 * TLS): every key's final hash and TTL (through the test kit's {@link RedisVerifier}),
 * and how many HSETs Redis executed in all ({@code INFO commandstats}), which counts the
 * records written twice.
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
	 * Every key of {@code events} must hold the hash of the last version produced for it,
	 * with a TTL in (0, {@code ttl}].
	 */
	RedisVerifier.Result verify(VersionedEvents events, Duration ttl) {
		return RedisVerifier.verify(connection, events.keys(), SampleEvents::key, events::finalHash, ttl);
	}

	/**
	 * HSET commands Redis has executed since it started: one per record written, more
	 * when re-written.
	 */
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

	/** Connections to Redis other than this read-back's own ({@code CLIENT LIST}). */
	long otherClients() {
		return connection.sync().clientList().lines().filter(line -> !line.isBlank()).count() - 1;
	}

	@Override
	public void close() {
		connection.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

}
