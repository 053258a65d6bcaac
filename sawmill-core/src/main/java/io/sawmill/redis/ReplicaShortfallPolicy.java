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
package io.sawmill.redis;

/**
 * What a batch does when a Redis master it writes to has fewer replicas attached than
 * {@code sawmill.pipeline.wait-for-replicas} asks for, once
 * {@code sawmill.pipeline.replica-shortfall-grace} has passed (during the grace, its
 * share of every batch is refused and written again, whichever the policy). A master left
 * without a replica is the normal state right after a failover: the replica that was
 * promoted had no replica of its own. docs/reliability.md#replica-shortfall argues for
 * the default.
 */
public enum ReplicaShortfallPolicy {

	/**
	 * Go on with the replicas that are attached (none, if none is): each batch waits for
	 * as many as are attached, at most {@code wait-for-replicas}. Consumption goes on,
	 * and the shortfall is shown (metric, alert, health, admin view). Trade-off: what is
	 * written meanwhile is held by fewer copies than asked, as on a Redis without
	 * replicas; it is lost only if that master fails as well before a replica has
	 * attached and synchronised with it.
	 */
	PROCEED,

	/**
	 * Keep refusing: the master's share of every batch fails until enough replicas are
	 * attached, so no offset is committed for a write that fewer copies hold. Trade-off:
	 * the partitions whose batches write to that master stop being committed (their lag
	 * grows) until an operator or the orchestrator attaches a replica; records older than
	 * the topic's retention are deleted by Kafka before they are written.
	 */
	REFUSE

}
