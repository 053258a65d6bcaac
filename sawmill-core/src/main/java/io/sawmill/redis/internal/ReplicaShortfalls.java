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

/**
 * The Redis masters a writer found short of replicas, for health, metrics, the admin view
 * and the doctor. Thread-safe: read from any thread while listener threads update it.
 */
@FunctionalInterface
public interface ReplicaShortfalls {

	/**
	 * The masters short of replicas now, each once; empty when every master the batches
	 * wrote to had enough.
	 */
	List<ReplicaShortfall> current();

	/** None ever: a writer that does not wait for replicas. */
	static ReplicaShortfalls none() {
		return List::of;
	}

}
