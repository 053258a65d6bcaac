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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.BatchInterceptor;

import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.autoconfigure.SawmillContainerCustomizer;
import io.sawmill.health.internal.ListenerContainerHealth;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * A listener whose every batch fails (Redis down, the circuit breaker off so that nothing
 * but the redelivery backoff slows the re-polls) polls its batch again only after a
 * growing backoff, reports the stall in health and in its gauges, and commits everything
 * once Redis is back.
 * <p>
 * Each poll is recorded as it happens ({@link Polls}): every wait between two polls of a
 * partition's same records is checked against the backoff, never a count over a fixed
 * window.
 */
class StalledListenerIT {

	private static final String TOPIC = "stalled";

	private static final int PARTITIONS = 3;

	/**
	 * Enough failures in a row for the backoff to reach its maximum: 100, 200, 400, 800,
	 * 1600, 2000 ms.
	 */
	private static final int REPOLLS = 6;

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, PARTITIONS);

	@Test
	void shouldBackOffBetweenRepollsReportTheStallAndCommitEverythingOnceRedisIsBack() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "stalled");
		properties.put("sawmill.circuit-breaker.enabled", false);
		properties.put("sawmill.pipeline.timeout", "1s");
		properties.put("sawmill.retry.max-attempts", 1);
		properties.put("sawmill.redelivery.initial-backoff", "100ms");
		properties.put("sawmill.redelivery.max-backoff", "2s");
		properties.put("sawmill.redelivery.stall-timeout", "3s");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties, Polls.class);
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			Polls polls = app.getBean(Polls.class);
			ListenerContainerHealth health = app.getBean(ListenerContainerHealth.class);
			Kafka.produce(servers.kafka().bootstrapServers(), TOPIC, 0, 300, SampleEvents::userId, SampleEvents::json);
			Map<TopicPartition, Long> before = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
			await().atMost(Duration.ofMinutes(1)).until(() -> Kafka.committedOffsets(admin, "stalled").equals(before));

			servers.redis().kill();
			Kafka.produce(servers.kafka().bootstrapServers(), TOPIC, 300, 600, SampleEvents::userId,
					SampleEvents::json);
			await().atMost(Duration.ofMinutes(2)).until(() -> health.check().details().containsKey("stalled"));
			assertThat(health.check().up()).as("health while no batch can be committed").isFalse();
			assertThat(gauge(registry, "sawmill.listener.stalled")).isEqualTo(1);

			// every partition's records are polled again after each failure, each time
			// only after the backoff, which doubles from 100 ms to 2 s: without a backoff
			// a failing batch is polled again thousands of times a second
			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
			List<TopicPartition> refilled = end.keySet().stream().filter(p -> end.get(p) > before.get(p)).toList();
			assertThat(refilled).as("partitions with records to write").isNotEmpty();
			await().atMost(Duration.ofMinutes(2))
				.until(() -> refilled.stream().allMatch(p -> polls.from(p, before.get(p)).size() > REPOLLS));
			for (TopicPartition partition : refilled) {
				List<Long> polled = polls.from(partition, before.get(partition));
				for (int failures = 1; failures < polled.size(); failures++) {
					assertThat(Duration.ofNanos(polled.get(failures) - polled.get(failures - 1)))
						.as("wait before %s's records were polled again after %d failures", partition, failures)
						.isGreaterThanOrEqualTo(backoff(failures));
				}
			}
			assertThat(gauge(registry, "sawmill.listener.consecutive.failures")).isGreaterThanOrEqualTo(REPOLLS);
			assertThat(Kafka.committedOffsets(admin, "stalled")).as("nothing committed while Redis is down")
				.isEqualTo(before);

			servers.redis().start();
			await().atMost(Duration.ofMinutes(1)).until(() -> Kafka.committedOffsets(admin, "stalled").equals(end));
			await().atMost(Duration.ofSeconds(30)).until(() -> health.check().up());
			assertThat(gauge(registry, "sawmill.listener.stalled")).isZero();
			assertThat(gauge(registry, "sawmill.listener.consecutive.failures")).isZero();
			// the restarted redis-server keeps nothing from before the kill: check the
			// records produced during it
			RedisVerifier.Result result = RedisVerifier.verify(servers.redis().host(), servers.redis().port(), 300,
					id -> SampleEvents.key(id + 300), id -> SampleEvents.hash(id + 300), Duration.ofHours(1));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
		}
	}

	/**
	 * The least wait before a batch is polled again after the thread's
	 * {@code failures}-th failure in a row.
	 */
	private static Duration backoff(int failures) {
		return Duration.ofMillis(Math.min(100L << (failures - 1), 2_000));
	}

	private static double gauge(MeterRegistry registry, String name) {
		return registry.get(name).gauge().value();
	}

	/**
	 * Records, as the consumer thread polls, when each partition's records were polled
	 * and from which offset: a batch interceptor on Sawmill's container, called before
	 * the listener.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Polls {

		private record Poll(long firstOffset, long nanos) {
		}

		private final Map<TopicPartition, List<Poll>> polls = new ConcurrentHashMap<>();

		/**
		 * When the records of {@code partition} from {@code offset} on were polled, as
		 * {@link System#nanoTime()}, in order.
		 */
		List<Long> from(TopicPartition partition, long offset) {
			return polls.getOrDefault(partition, List.of())
				.stream()
				.filter(poll -> poll.firstOffset() == offset)
				.map(Poll::nanos)
				.toList();
		}

		@Bean
		SawmillContainerCustomizer pollRecordingCustomizer() {
			return container -> container.setBatchInterceptor(new BatchInterceptor<byte[], byte[]>() {
				@Override
				public ConsumerRecords<byte[], byte[]> intercept(ConsumerRecords<byte[], byte[]> polled,
						Consumer<byte[], byte[]> consumer) {
					long now = System.nanoTime();
					for (TopicPartition partition : polled.partitions()) {
						polls.computeIfAbsent(partition, p -> new CopyOnWriteArrayList<>())
							.add(new Poll(polled.records(partition).get(0).offset(), now));
					}
					return polled;
				}
			});
		}

	}

}
