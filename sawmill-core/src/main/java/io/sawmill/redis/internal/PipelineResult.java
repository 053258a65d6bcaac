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

import java.util.List;

import io.sawmill.mapping.RedisWrite;

/**
 * The outcome of one pipelined batch.
 *
 * @param commands how many commands were sent
 * @param chunks how many flushes (round trips) they took
 * @param failures the commands Redis did not acknowledge, in the order they were sent
 * @param stale the positions (in the list given to {@link RedisBatchWriter#write}) of the
 * {@link RedisWrite.Function} writes that Redis acknowledged with the reply 0: not
 * applied, because the key holds a newer version; ascending
 */
public record PipelineResult(int commands, int chunks, List<Failure> failures, List<Integer> stale) {

	public PipelineResult {
		failures = List.copyOf(failures);
		stale = List.copyOf(stale);
	}

	/** A round trip none of whose writes was stale. */
	public PipelineResult(int commands, int chunks, List<Failure> failures) {
		this(commands, chunks, failures, List.of());
	}

	/** Whether Redis acknowledged every command of the batch. */
	public boolean succeeded() {
		return failures.isEmpty();
	}

	/**
	 * One command that failed.
	 *
	 * @param index its position in the list given to {@link RedisBatchWriter#write}
	 * @param write the command
	 * @param cause the error reply, the timeout or the connection failure
	 */
	public record Failure(int index, RedisWrite write, Throwable cause) {
	}
}
