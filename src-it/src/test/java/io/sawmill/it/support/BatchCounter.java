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
package io.sawmill.it.support;

import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.BatchInterceptor;

import io.sawmill.autoconfigure.SawmillContainerCustomizer;

/**
 * Counts, independently of Sawmill's meters, the batches the listener completed
 * successfully and their records: a batch interceptor on Sawmill's container, called by
 * Spring Kafka after the listener returned.
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
