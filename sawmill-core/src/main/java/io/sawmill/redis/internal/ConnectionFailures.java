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
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.sawmill.mapping.RedisWrite;

/**
 * The writer's side of failure classification, next to {@link FailureClass} (which says
 * whether a failed command may be sent again): whether a failure left the connection in
 * an unknown state, so that it must be replaced, and the failures the writer makes
 * itself.
 */
final class ConnectionFailures {

	private ConnectionFailures() {
	}

	/**
	 * Whether a failure left the connection in an unknown state: anything but an error
	 * reply (after which the connection carries on) or an overtaken write
	 * ({@link KeyOrder.Overtaken}). The connection is then replaced, and a batch waiting
	 * for replicas is not confirmed.
	 */
	static boolean isConnectionFailure(List<PipelineResult.Failure> failures) {
		for (PipelineResult.Failure failure : failures) {
			if (!(failure.cause() instanceof RedisCommandExecutionException)
					&& !(failure.cause() instanceof KeyOrder.Overtaken)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Every write failed with {@code cause}; the replies already queued are cancelled.
	 */
	static List<PipelineResult.Failure> failAll(List<RedisWrite> writes, List<? extends RedisFuture<?>> replies,
			RuntimeException cause) {
		List<PipelineResult.Failure> failures = new ArrayList<>(writes.size());
		for (int i = 0; i < writes.size(); i++) {
			failures.add(new PipelineResult.Failure(i, writes.get(i), cause));
		}
		replies.forEach(reply -> reply.cancel(true));
		return failures;
	}

	/** A batch whose every write failed with {@code cause} before any was sent. */
	static PipelineResult failed(List<RedisWrite> writes, int chunks, List<? extends RedisFuture<?>> replies,
			RuntimeException cause) {
		return new PipelineResult(writes.size(), chunks, failAll(writes, replies, cause));
	}

	/** No reply within the writer's timeout. */
	static RedisCommandTimeoutException timeout(Duration timeout) {
		return new RedisCommandTimeoutException("no reply within " + timeout + " (sawmill.pipeline.timeout)");
	}

}
