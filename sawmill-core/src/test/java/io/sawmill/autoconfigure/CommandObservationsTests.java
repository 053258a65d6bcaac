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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.observation.LettuceObservationAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import io.lettuce.core.resource.ClientResources;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.RedisBatchWriter;
import io.sawmill.testkit.KafkaTestBroker;
import io.sawmill.testkit.RedisClusterProcess;

/**
 * With an {@link ObservationRegistry} (what Actuator brings), Boot's
 * {@link LettuceObservationAutoConfiguration} has Lettuce observe every command sent
 * through its API. Sawmill turns that off on the client its writer uses, and keeps it
 * when asked, for the application's own commands; the writer's batches go to the masters'
 * channels past the API and are not observed either way. Real broker, real three-master
 * Redis Cluster; the observations are counted by the meters they would create.
 */
class CommandObservationsTests {

	private static final int RECORDS = 1_000;

	private static KafkaTestBroker kafka;

	private static RedisClusterProcess cluster;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(KafkaAutoConfiguration.class, LettuceObservationAutoConfiguration.class,
						DataRedisAutoConfiguration.class, SawmillAutoConfiguration.class))
		.withUserConfiguration(Observed.class)
		.withPropertyValues("spring.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
				"spring.data.redis.cluster.nodes=" + cluster.ports()
					.stream()
					.map(port -> cluster.host() + ":" + port)
					.collect(Collectors.joining(",")),
				"sawmill.startup-timeout=10s", "sawmill.topics=scores", "sawmill.mapping.key-template={@key}");

	@BeforeAll
	static void startServers() {
		kafka = KafkaTestBroker.start().createTopic("scores", 1);
		cluster = RedisClusterProcess.startNew();
	}

	@AfterAll
	static void stopServers() {
		if (kafka != null) {
			kafka.close();
		}
		if (cluster != null) {
			cluster.close();
		}
	}

	@Test
	void shouldNotObserveTheWritersCommandsWhenBootWouldObserveEveryCommand() {
		runner.run(context -> {
			assertThat(context).hasNotFailed().hasBean("lettuceObservation");
			assertThat(context.getBean(ClientResources.class).tracing().isEnabled()).isFalse();

			assertThat(writeOneBatch(context.getBean(RedisBatchWriter.class)).succeeded()).isTrue();

			assertThat(lettuceTimers(context.getBean(SimpleMeterRegistry.class))).isEmpty();
		});
	}

	@Test
	void shouldObserveTheApplicationsOwnCommandsButNotTheWritersChunksWhenAskedToKeepCommandObservations() {
		runner.withPropertyValues("sawmill.pipeline.command-observations=true").run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(ClientResources.class).tracing().isEnabled()).isTrue();
			SimpleMeterRegistry meters = context.getBean(SimpleMeterRegistry.class);

			assertThat(writeOneBatch(context.getBean(RedisBatchWriter.class)).succeeded()).isTrue();
			try (RedisConnection own = context.getBean(RedisConnectionFactory.class).getConnection()) {
				own.stringCommands().set(RedisWrite.utf8("own-command"), RedisWrite.utf8("1"));
			}

			// the writer writes each master's share of a chunk to its channel, past
			// Lettuce's API
			await().untilAsserted(() -> assertThat(observed(meters, "SET")).as("the application's SET").isOne());
			assertThat(observed(meters, "HSET") + observed(meters, "EXPIRE")).as("the writer's HSETs and EXPIREs")
				.isZero();
		});
	}

	/** How many commands of one type Lettuce observed. */
	private static long observed(SimpleMeterRegistry meters, String command) {
		return lettuceTimers(meters).stream()
			.filter(timer -> command.equalsIgnoreCase(timer.getId().getTag("db.operation")))
			.mapToLong(Timer::count)
			.sum();
	}

	private static PipelineResult writeOneBatch(RedisBatchWriter writer) {
		List<RedisWrite> writes = new ArrayList<>(2 * RECORDS);
		for (int i = 0; i < RECORDS; i++) {
			String key = "player:" + i;
			writes.add(RedisWrite.hset(key, Map.of("score", Integer.toString(i))));
			writes.add(RedisWrite.expire(RedisWrite.utf8(key), Duration.ofHours(1)));
		}
		return writer.write(writes);
	}

	/**
	 * The timers Lettuce's observations create: one per command type, tagged
	 * {@code db.system=redis}.
	 */
	private static List<Timer> lettuceTimers(SimpleMeterRegistry meters) {
		return meters.getMeters()
			.stream()
			.filter(Timer.class::isInstance)
			.map(Timer.class::cast)
			.filter(timer -> "redis".equals(timer.getId().getTag("db.system")))
			.toList();
	}

	/**
	 * What Actuator would bring: an observation registry whose observations become
	 * timers.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Observed {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

		@Bean
		ObservationRegistry observationRegistry(SimpleMeterRegistry meters) {
			ObservationRegistry registry = ObservationRegistry.create();
			registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
			return registry;
		}

		@Bean
		SawmillContainerCustomizer doNotStartContainer() {
			return container -> container.setAutoStartup(false);
		}

	}

}
