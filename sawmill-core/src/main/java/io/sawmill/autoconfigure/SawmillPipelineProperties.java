package io.sawmill.autoconfigure;

import java.time.Duration;

import io.sawmill.redis.PipelineConfig;

/** The pipelined Redis round trip. */
public class SawmillPipelineProperties {

	/** Most commands per flush; a batch with more goes out in several chunks awaited together. */
	private int maxCommandsPerChunk = PipelineConfig.DEFAULT_MAX_COMMANDS_PER_CHUNK;

	/** How long one batch may wait for all its Redis replies. */
	private Duration timeout = PipelineConfig.DEFAULT_TIMEOUT;

	/** Keep Lettuce's hash-indexed command queue on the client of Boot's connection factory (off by default). */
	private boolean hashIndexedCommandQueue = false;

	/** Keep Lettuce's per-command observations on the client of Boot's connection factory (off by default). */
	private boolean commandObservations = false;

	/** Replicas that must confirm each batch (Redis WAIT, on each master it wrote to) before its offsets are committed; unset: 1 with Sentinel, and with a Cluster whose every master has a replica, else 0. */
	private Integer waitForReplicas;

	/** How long a batch waits for those replicas before it counts as a transient failure. */
	private Duration replicaTimeout = PipelineConfig.DEFAULT_REPLICA_TIMEOUT;

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

	public Integer getWaitForReplicas() {
		return waitForReplicas;
	}

	public void setWaitForReplicas(Integer waitForReplicas) {
		this.waitForReplicas = waitForReplicas;
	}

	public Duration getReplicaTimeout() {
		return replicaTimeout;
	}

	public void setReplicaTimeout(Duration replicaTimeout) {
		this.replicaTimeout = replicaTimeout;
	}
}
