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
package io.sawmill.redis.internal;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.sawmill.testkit.RedisServerProcess;

/**
 * A real redis-server for a writer test class, registered as a static
 * {@code @RegisterExtension}: started before the class's tests, with a client the writers
 * connect with (as the auto-configuration builds it: no hash-indexed command queue) and a
 * connection of its own to read back what they wrote; every writer a test opened is
 * closed after it, and the server after the last test.
 */
final class StandaloneRedis implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

	private final List<LettucePipelinedWriter> writers = new ArrayList<>();

	private RedisServerProcess server;

	private RedisClient writerClient;

	private RedisClient readerClient;

	private StatefulRedisConnection<String, String> readerConnection;

	private RedisCommands<String, String> reader;

	@Override
	public void beforeAll(ExtensionContext context) {
		server = RedisServerProcess.startNew();
		RedisURI uri = RedisURI.create(server.host(), server.port());
		writerClient = RedisClient.create(uri);
		writerClient.setOptions(ClientOptions.builder().useHashIndexQueue(false).build());
		readerClient = RedisClient.create(uri);
		readerConnection = readerClient.connect();
		reader = readerConnection.sync();
	}

	/**
	 * A writer on one connection, open, with these Function libraries loaded; closed
	 * after the test.
	 */
	LettucePipelinedWriter openWriter(PipelineConfig config, List<String> functionLibraries) {
		LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> writerClient, config, false,
				functionLibraries);
		writers.add(writer);
		writer.open(1);
		return writer;
	}

	/** Commands on the reading connection. */
	RedisCommands<String, String> reader() {
		return reader;
	}

	@Override
	public void afterEach(ExtensionContext context) {
		writers.forEach(LettucePipelinedWriter::close);
		writers.clear();
	}

	@Override
	public void afterAll(ExtensionContext context) throws Exception {
		Teardown.close(readerConnection, readerClient, writerClient, server);
	}

}
