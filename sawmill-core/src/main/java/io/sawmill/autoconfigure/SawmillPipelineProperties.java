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
package io.sawmill.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.sawmill.redis.ReplicaShortfallPolicy;
import io.sawmill.redis.internal.PipelineConfig;

/** The pipelined Redis round trip. */
public class SawmillPipelineProperties {

	/**
	 * Most commands per flush; a batch with more goes out in several chunks awaited
	 * together.
	 */
	private int maxCommandsPerChunk = PipelineConfig.DEFAULT_MAX_COMMANDS_PER_CHUNK;

	/** How long one batch may wait for all its Redis replies. */
	private Duration timeout = PipelineConfig.DEFAULT_TIMEOUT;

	/**
	 * Keep Lettuce's hash-indexed command queue on the client of Boot's connection
	 * factory (off by default).
	 */
	private boolean hashIndexedCommandQueue = false;

	/**
	 * Keep Lettuce's per-command observations on the client of Boot's connection factory
	 * (off by default).
	 */
	private boolean commandObservations = false;

	/**
	 * Replicas that must confirm each batch (Redis WAIT, on each master it wrote to)
	 * before its offsets are committed; unset: 1 with Sentinel, and with a Cluster whose
	 * every master has a replica, else 0.
	 */
	private @Nullable Integer waitForReplicas;

	/**
	 * How long a batch waits for those replicas before it counts as a transient failure.
	 */
	private Duration replicaTimeout = PipelineConfig.DEFAULT_REPLICA_TIMEOUT;

	/**
	 * What a batch does, past the grace, for a master with fewer replicas attached than
	 * wait-for-replicas: proceed with those attached, or refuse.
	 */
	private ReplicaShortfallPolicy replicaShortfall = PipelineConfig.DEFAULT_REPLICA_SHORTFALL;

	/**
	 * How long a master short of replicas is refused before replica-shortfall decides;
	 * keep it longer than the Cluster's cluster-node-timeout.
	 */
	private Duration replicaShortfallGrace = PipelineConfig.DEFAULT_REPLICA_SHORTFALL_GRACE;

	public int getMaxCommandsPerChunk() {
		return maxCommandsPerChunk;
	}

	public void setMaxCommandsPerChunk(int maxCommandsPerChunk) {
		this.maxCommandsPerChunk = maxCommandsPerChunk;
	}

	public Duration getTimeout() {
		return timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

	public boolean isHashIndexedCommandQueue() {
		return hashIndexedCommandQueue;
	}

	public void setHashIndexedCommandQueue(boolean hashIndexedCommandQueue) {
		this.hashIndexedCommandQueue = hashIndexedCommandQueue;
	}

	public boolean isCommandObservations() {
		return commandObservations;
	}

	public void setCommandObservations(boolean commandObservations) {
		this.commandObservations = commandObservations;
	}

	public @Nullable Integer getWaitForReplicas() {
		return waitForReplicas;
	}

	public void setWaitForReplicas(@Nullable Integer waitForReplicas) {
		this.waitForReplicas = waitForReplicas;
	}

	public Duration getReplicaTimeout() {
		return replicaTimeout;
	}

	public void setReplicaTimeout(Duration replicaTimeout) {
		this.replicaTimeout = replicaTimeout;
	}

	public ReplicaShortfallPolicy getReplicaShortfall() {
		return replicaShortfall;
	}

	public void setReplicaShortfall(ReplicaShortfallPolicy replicaShortfall) {
		this.replicaShortfall = replicaShortfall;
	}

	public Duration getReplicaShortfallGrace() {
		return replicaShortfallGrace;
	}

	public void setReplicaShortfallGrace(Duration replicaShortfallGrace) {
		this.replicaShortfallGrace = replicaShortfallGrace;
	}

}
