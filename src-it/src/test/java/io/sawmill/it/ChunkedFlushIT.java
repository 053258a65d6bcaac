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
package io.sawmill.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.sawmill.autoconfigure.SawmillContainerCustomizer;
import io.sawmill.it.support.FlushCounter;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * A batch larger than {@code sawmill.pipeline.max-commands-per-chunk} goes out in
 * ceil(commands / chunk) flushes, counted at the socket, never one per command.
 */
class ChunkedFlushIT {

	private static final String TOPIC = "chunked";

	private static final long RECORDS = 20_000;

	private static final int CHUNK = 700;

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, 2);

	/** Records the size of every polled batch. */
	@Configuration(proxyBeanMethods = false)
	static class BatchSizes {

		final List<Integer> sizes = new CopyOnWriteArrayList<>();

		@Bean
		SawmillContainerCustomizer recordBatchSizes() {
			return container -> container.setBatchInterceptor((records, consumer) -> {
				sizes.add(records.count());
				return records;
			});
		}

	}

	@Test
	void shouldFlushOncePerChunkOfABatch() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "chunked");
		properties.put("sawmill.batch-size", 2000);
		properties.put("sawmill.pipeline.max-commands-per-chunk", CHUNK);
		try (ConfigurableApplicationContext app = SawmillApp.run(properties, FlushCounter.class, BatchSizes.class);
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			FlushCounter counter = app.getBean(FlushCounter.class);
			List<Integer> sizes = app.getBean(BatchSizes.class).sizes;
			long flushesBefore = counter.flushes();

			Kafka.produce(servers.kafka().bootstrapServers(), TOPIC, 0, RECORDS, SampleEvents::userId,
					SampleEvents::json);
			Map<org.apache.kafka.common.TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, 2);
			await().atMost(Duration.ofMinutes(2))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> Kafka.committedOffsets(admin, "chunked").equals(end));

			// HSET + EXPIRE per record
			long expectedFlushes = sizes.stream().mapToLong(n -> (2L * n + CHUNK - 1) / CHUNK).sum();
			assertThat(sizes.stream().mapToLong(Integer::longValue).sum()).isEqualTo(RECORDS);
			assertThat(sizes).anyMatch(n -> 2 * n > CHUNK);
			assertThat(counter.flushes() - flushesBefore).isEqualTo(expectedFlushes);
			RedisVerifier.Result result = RedisVerifier.verify(servers.redis().host(), servers.redis().port(), RECORDS,
					SampleEvents::key, SampleEvents::hash, Duration.ofHours(1));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
		}
	}

}
