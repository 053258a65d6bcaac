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
package io.sawmill.admin.internal;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.redis.internal.ReplicaShortfall;
import io.sawmill.redis.internal.ReplicaShortfalls;

/**
 * The operator's view of the Redis masters short of replicas
 * ({@code GET /actuator/sawmill/replicas}): the policy that applies to them and, per
 * master, how many replicas it has, how many each batch asks for, since when and what
 * batches do now.
 */
public final class ReplicaShortfallView {

	private final ReplicaShortfalls shortfalls;

	private final PipelineConfig pipeline;

	public ReplicaShortfallView(ReplicaShortfalls shortfalls, PipelineConfig pipeline) {
		this.shortfalls = shortfalls;
		this.pipeline = pipeline;
	}

	/**
	 * {@code policy} and {@code grace} (sawmill.pipeline.replica-shortfall, -grace), and
	 * {@code shortfalls}: one entry per master short of replicas, empty when none is.
	 */
	public Map<String, Object> view() {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("policy", pipeline.replicaShortfall().name().toLowerCase(Locale.ROOT));
		view.put("grace", pipeline.replicaShortfallGrace().toString());
		view.put("shortfalls", shortfalls.current().stream().map(ReplicaShortfall::details).toList());
		return view;
	}

}
