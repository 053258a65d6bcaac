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
	 * Closes each in the order given (connections before their clients, clients before their
	 * resources, servers last); nulls, left by a start-up that failed half way, are skipped.
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
