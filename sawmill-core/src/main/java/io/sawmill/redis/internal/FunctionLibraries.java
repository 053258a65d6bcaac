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
import java.util.List;
import java.util.Locale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.RedisCommandExecutionException;

/**
 * The Redis Function libraries the writer's
 * {@link io.sawmill.mapping.RedisWrite.Function} writes call: loaded
 * ({@code FUNCTION LOAD REPLACE}) on every master when the writer opens, and again when a
 * write's reply says its function is not found (the master restarted without persistence,
 * a failover promoted a node that never had it, or someone flushed the functions). That
 * reply is a transient failure, so the records are retried after the backoff and find the
 * library loaded.
 * <p>
 * Immutable; shared by the writing threads.
 */
final class FunctionLibraries {

	private static final Logger log = LoggerFactory.getLogger(FunctionLibraries.class);

	private static final String NOT_FOUND = "ERR FUNCTION NOT FOUND";

	private final List<String> sources;

	FunctionLibraries(List<String> sources) {
		this.sources = List.copyOf(sources);
	}

	boolean isEmpty() {
		return sources.isEmpty();
	}

	/**
	 * Loads every library through {@code connection}.
	 * @throws IllegalStateException when a master did not load one
	 */
	void load(DedicatedConnection connection, Duration timeout) {
		for (String source : sources) {
			connection.loadFunction(source, timeout);
		}
	}

	/**
	 * After a round trip: loads the libraries again when some write's function was not
	 * found.
	 */
	void reloadIfMissing(DedicatedConnection connection, PipelineResult result, Duration timeout) {
		if (sources.isEmpty() || !anyNotFound(result.failures())) {
			return;
		}
		try {
			load(connection, timeout);
			log.warn(
					"Redis did not know a function the batch called (it restarted without persistence, failed over, or "
							+ "its functions were flushed); the Function libraries are loaded again and the writes retried");
		}
		catch (RuntimeException ex) {
			log.warn("Loading the Redis Function libraries again failed; the next failed batch tries again: {}",
					ex.getMessage());
		}
	}

	private static boolean anyNotFound(List<PipelineResult.Failure> failures) {
		for (PipelineResult.Failure failure : failures) {
			if (failure.cause() instanceof RedisCommandExecutionException error
					&& String.valueOf(error.getMessage()).toUpperCase(Locale.ROOT).startsWith(NOT_FOUND)) {
				return true;
			}
		}
		return false;
	}

}
