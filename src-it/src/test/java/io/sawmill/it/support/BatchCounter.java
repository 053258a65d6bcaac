package io.sawmill.it.support;

import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.BatchInterceptor;

import io.sawmill.autoconfigure.SawmillContainerCustomizer;

/**
 * Counts, independently of Sawmill's meters, the batches the listener completed successfully and
 * their records: a batch interceptor on Sawmill's container, called by Spring Kafka after the
 * listener returned.
 */
@Configuration(proxyBeanMethods = false)
public class BatchCounter {

	private final AtomicLong batches = new AtomicLong();
	private final AtomicLong records = new AtomicLong();

	public long batches() {
		return batches.get();
	}

	public long records() {
		return records.get();
	}

	@Bean
	SawmillContainerCustomizer batchCountingCustomizer() {
		return container -> container.setBatchInterceptor(new BatchInterceptor<byte[], byte[]>() {
			@Override
			public ConsumerRecords<byte[], byte[]> intercept(ConsumerRecords<byte[], byte[]> polled,
					Consumer<byte[], byte[]> consumer) {
				return polled;
			}

			@Override
			public void success(ConsumerRecords<byte[], byte[]> polled, Consumer<byte[], byte[]> consumer) {
				batches.incrementAndGet();
				records.addAndGet(polled.count());
			}
		});
	}
}
