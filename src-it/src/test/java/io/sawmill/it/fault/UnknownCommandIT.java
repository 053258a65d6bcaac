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
package io.sawmill.it.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.MessageListenerContainer;

import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.MapperDecorator;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.testkit.RedisVerifier;

/**
 * A custom mapper's command that Redis does not know ({@code ERR unknown command}: the
 * operator renamed {@code PEXPIRE} away, as hardening guides advise). Every record would
 * fail alike, so none is the record's fault: the listener pauses (the circuit opens),
 * nothing is dead-lettered or committed past the failing batch, and once the mapper uses
 * the name Redis knows, every record is written with its TTL.
 */
class UnknownCommandIT {

	private static final String TOPIC = "unknown-command";

	private static final String GROUP = "unknown-command";

	private static final VersionedEvents WORKLOAD = new VersionedEvents(4_000, 1_000);

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, 1)
		.redisArgs("--rename-command", "PEXPIRE", "PEXPIRE-RENAMED");

	/**
	 * The name of the expire command the mapper sends; the test "fixes the mapper" by
	 * changing it.
	 */
	static volatile String expireCommand = "PEXPIRE";

	/**
	 * The built-in mapping, its TTL sent as the custom command
	 * {@code <expireCommand> key millis}.
	 */
	@Configuration(proxyBeanMethods = false)
	static class CustomExpire {

		@Bean
		static BeanPostProcessor expireAsCustomCommand() {
			return MapperDecorator.decorating(mapper -> record -> {
				List<RedisWrite> writes = new ArrayList<>();
				for (RedisWrite write : mapper.map(record)) {
					writes.add(write instanceof RedisWrite.Expire expire
							? RedisWrite.command(expireCommand, expire.key(),
									Long.toString(expire.ttl().toMillis()).getBytes(StandardCharsets.US_ASCII))
							: write);
				}
				return writes;
			});
		}

	}

	@Test
	void shouldPauseAndDeadLetterNothingWhileRedisDoesNotKnowTheMappersCommand() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, GROUP);
		properties.put("sawmill.batch-size", 200);
		properties.put("sawmill.retry.max-attempts", 2);
		properties.put("sawmill.retry.initial-backoff", "50ms");
		properties.put("sawmill.retry.max-backoff", "100ms");
		properties.put("sawmill.circuit-breaker.sliding-window", 2);
		properties.put("sawmill.circuit-breaker.open-wait", "2s");
		try (Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			FaultAssertions.createTopics(admin, TOPIC, 1);
		}
		expireCommand = "PEXPIRE";
		try (ConfigurableApplicationContext app = SawmillApp.run(properties, CustomExpire.class);
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			WORKLOAD.produce(servers.kafka().bootstrapServers(), TOPIC, 0, WORKLOAD.records());
			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, 1);

			await("the listener pauses").atMost(Duration.ofMinutes(1))
				.until(() -> registry.get("sawmill.listener.paused").gauge().value() > 0);
			await().atMost(Duration.ofMinutes(1))
				.until(() -> app.getBeansOfType(MessageListenerContainer.class)
					.values()
					.stream()
					.anyMatch(MessageListenerContainer::isContainerPaused));
			assertThat(FaultAssertions.uncommitted(admin, GROUP, end)).as("records left uncommitted").isPositive();
			assertThat(registry.find("sawmill.records").tag("outcome", "dead_lettered").counter()).isNull();
			assertThat(Kafka.sum(Kafka.endOffsets(admin, FaultAssertions.deadLetterTopic(TOPIC), 1)))
				.as("records in the dead-letter topic")
				.isZero();

			expireCommand = "PEXPIRE-RENAMED"; // the mapper is fixed
			FaultAssertions.awaitAllCommitted(admin, GROUP, TOPIC, 1, WORKLOAD.records(), Duration.ofMinutes(2));
			RedisVerifier.Result result = WORKLOAD.verify(servers.redis().host(), servers.redis().port(),
					FaultAssertions.TTL);
			assertThat(result.allVerified()).as(result.toString()).isTrue();
			assertThat(registry.find("sawmill.records").tag("outcome", "dead_lettered").counter()).isNull();
			assertThat(Kafka.sum(Kafka.endOffsets(admin, FaultAssertions.deadLetterTopic(TOPIC), 1)))
				.as("records in the dead-letter topic")
				.isZero();
		}
	}

}
