package io.sawmill.autoconfigure;

import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Stops Sawmill's listener container synchronously, before anything it uses is stopped.
 * <p>
 * Why: when the application context closes (SIGTERM), Spring's lifecycle processor moved on from the
 * container's phase without waiting for the batch in flight, and stopped Lettuce's connection
 * factory underneath it: the batch failed and its offsets were not committed (found by
 * {@code SawmillProcessTerminatedIT}). A direct {@link MessageListenerContainer#stop()} does wait,
 * up to {@code sawmill.shutdown-timeout}, for every consumer thread to finish its batch and commit.
 * This bean runs that stop in the phase just before the container's own.
 */
final class GracefulStop implements SmartLifecycle {

	private final MessageListenerContainer container;
	private volatile boolean running;

	GracefulStop(MessageListenerContainer container) {
		this.container = container;
	}

	@Override
	public void start() {
		running = true;
	}

	@Override
	public void stop() {
		running = false;
		container.stop();
	}

	@Override
	public boolean isRunning() {
		return running;
	}

	/** Stopped right before the container ({@link AbstractMessageListenerContainer#DEFAULT_PHASE}). */
	@Override
	public int getPhase() {
		return AbstractMessageListenerContainer.DEFAULT_PHASE + 1;
	}
}
