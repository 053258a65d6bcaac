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

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import io.sawmill.redis.ReplicaShortfallPolicy;

/**
 * A Redis master with fewer replicas attached (synchronised and online, by its own
 * {@code INFO replication}) than {@link PipelineConfig#waitForReplicas()} asks for.
 *
 * @param master the master's host and port on a Redis Cluster; {@code master} on a
 * standalone or Sentinel-managed connection, which has one
 * @param attached the replicas attached when it last answered
 * @param required {@code wait-for-replicas}
 * @param since when a batch first found the shortfall
 * @param state what batches that write to the master do now
 */
public record ReplicaShortfall(String master, int attached, int required, Instant since, State state) {

	/** The shortfall as health details and the admin view show it. */
	public Map<String, Object> details() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("master", master);
		details.put("attached", attached);
		details.put("required", required);
		details.put("since", since.toString());
		details.put("state", state.tag());
		return details;
	}

	/** What batches that write to a master short of replicas do. */
	public enum State {

		/**
		 * Within {@link PipelineConfig#replicaShortfallGrace()}: the master's share of
		 * every batch is refused and written again.
		 */
		WAITING,

		/**
		 * Past the grace, with {@link ReplicaShortfallPolicy#PROCEED}: each batch waits
		 * for the replicas that are attached only.
		 */
		PROCEEDING,

		/**
		 * Past the grace, with {@link ReplicaShortfallPolicy#REFUSE}: the master's share
		 * of every batch is still refused.
		 */
		REFUSING;

		/** The state's name as metrics and the admin view show it. */
		public String tag() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

}
