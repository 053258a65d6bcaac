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
package io.sawmill.listener.internal;

import io.sawmill.redis.internal.PipelineResult;

/**
 * Redis did not take every record of a batch within the retry budget (transient failures
 * remain, or the circuit is open). The batch's offsets are not committed: the container
 * seeks back and polls the same records again.
 */
class BatchWriteFailedException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public BatchWriteFailedException(int attempts, PipelineResult last) {
		super("Redis did not acknowledge " + last.failures().size() + " of " + last.commands() + " commands after "
				+ attempts + " attempts; first error: " + last.failures().get(0).cause(),
				last.failures().get(0).cause());
	}

	public BatchWriteFailedException(String message, Throwable cause) {
		super(message, cause);
	}

}
