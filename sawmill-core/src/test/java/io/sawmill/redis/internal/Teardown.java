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

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.resource.ClientResources;

/** The end of a writer test class: its connections, clients, resources and servers. */
final class Teardown {

	private Teardown() {
	}

	/**
	 * Closes each in the order given (connections before their clients, clients before
	 * their resources, servers last); nulls, left by a start-up that failed half way, are
	 * skipped.
	 */
	static void close(Object... closeables) throws Exception {
		for (Object closeable : closeables) {
			if (closeable instanceof AbstractRedisClient client) {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
			else if (closeable instanceof ClientResources resources) {
				resources.shutdown(0, 2, TimeUnit.SECONDS);
			}
			else if (closeable instanceof AutoCloseable other) {
				other.close();
			}
		}
	}

}
