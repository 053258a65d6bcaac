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

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.testkit.RedisServerProcess;

/**
 * A redis-server of its own on a free port, with one connection, for the tests that write
 * Redis and read it back through {@link Verification}: a static
 * {@code @RegisterExtension} field starts it before the class's tests and stops it after
 * them.
 */
final class LocalRedis implements BeforeAllCallback, AfterAllCallback {

	private RedisServerProcess server;

	private RedisClient client;

	private StatefulRedisConnection<String, String> connection;

	@Override
	public void beforeAll(ExtensionContext context) {
		server = RedisServerProcess.startNew();
		client = RedisClient.create(RedisURI.create(server.host(), server.port()));
		connection = client.connect();
	}

	/** The server, directly (no proxy), as the benchmark's runs see it. */
	Endpoint endpoint() {
		return Endpoint.standalone(0, null, server);
	}

	RedisAsyncCommands<String, String> async() {
		return connection.async();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		connection.close();
		client.shutdown();
		server.close();
	}

}
