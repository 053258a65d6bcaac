package io.sawmill.autoconfigure;

import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

/**
 * Callback to adjust Sawmill's listener container before it starts (e.g. a container-level
 * interceptor or extra container properties). Beans of this type are applied in order.
 */
@FunctionalInterface
public interface SawmillContainerCustomizer {

	void customize(ConcurrentMessageListenerContainer<byte[], byte[]> container);
}
