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

import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;

import io.sawmill.redis.internal.RedisBatchWriter;

/**
 * Stops Sawmill's listener container synchronously, before anything it uses is stopped.
 * <p>
 * Why: when the application context closes (SIGTERM), Spring's lifecycle processor moved
 * on from the container's phase without waiting for the batch in flight, and stopped
 * Lettuce's connection factory underneath it: the batch failed and its offsets were not
 * committed (found by {@code SawmillProcessTerminatedIT}). A direct
 * {@link MessageListenerContainer#stop()} does wait, up to
 * {@code sawmill.shutdown-timeout}, for every consumer thread to finish its batch and
 * commit. This bean runs that stop in the phase just before the container's own.
 * <p>
 * Then it closes the Redis writer's connections, while Lettuce's client is still up:
 * closed only when the connection factory stopped the client (a later phase), a cluster
 * connection closed its connection to each master a second time, and Lettuce warned
 * "Connection is already closed" for each of them at every shutdown. Nothing writes once
 * the container stopped; a writer that is used again (the context restarted) opens new
 * connections.
 */
final class GracefulStop implements SmartLifecycle {

	private final MessageListenerContainer container;

	private final RedisBatchWriter writer;

	private volatile boolean running;

	GracefulStop(MessageListenerContainer container, RedisBatchWriter writer) {
		this.container = container;
		this.writer = writer;
	}

	@Override
	public void start() {
		running = true;
	}

	@Override
	public void stop() {
		running = false;
		container.stop();
		writer.close();
	}

	@Override
	public boolean isRunning() {
		return running;
	}

	/**
	 * Stopped right before the container
	 * ({@link AbstractMessageListenerContainer#DEFAULT_PHASE}).
	 */
	@Override
	public int getPhase() {
		return AbstractMessageListenerContainer.DEFAULT_PHASE + 1;
	}

}
