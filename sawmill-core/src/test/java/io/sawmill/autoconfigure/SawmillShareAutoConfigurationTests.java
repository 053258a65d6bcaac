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
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.sawmill.admin.internal.SawmillOperations;
import io.sawmill.listener.internal.ShareConsumers;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.VersionGuard;
import io.sawmill.testkit.KafkaTestBroker;
import io.sawmill.testkit.RedisServerProcess;

/**
 * {@code sawmill.consumption.mode=share} against a real broker with share groups and a
 * real redis-server: accepted with writes that converge in any order and then reading
 * through share consumers instead of the consumer group's container; refused at start-up,
 * with the reason and the fix, otherwise.
 */
class SawmillShareAutoConfigurationTests {

	private static KafkaTestBroker kafka;

	private static RedisServerProcess redis;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, DataRedisAutoConfiguration.class,
				SawmillAutoConfiguration.class, SawmillShareAutoConfiguration.class,
				SawmillObservabilityAutoConfiguration.class))
		.withPropertyValues("spring.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
				"spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
				"sawmill.startup-timeout=10s", "sawmill.consumption.mode=share");

	private final ApplicationContextRunner hashes = runner.withPropertyValues("sawmill.topics=users",
			"sawmill.mapping.key-template=user:{@key}");

	@BeforeAll
	static void startServers() {
		kafka = KafkaTestBroker.startWithShareGroups(Duration.ofSeconds(5)).createTopic("users", 1);
		redis = RedisServerProcess.startNew();
	}

	@AfterAll
	static void stopServers() {
		redis.close();
		kafka.close();
	}

	@Test
	void shouldReadThroughShareConsumersInsteadOfTheGroupsContainerWithVersionGuardedHashes() throws Exception {
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringSerializer(),
				new StringSerializer())) {
			producer.send(new ProducerRecord<>("users", "u1", "{\"v\":2,\"name\":\"new\"}")).get();
			producer.send(new ProducerRecord<>("users", "u1", "{\"v\":1,\"name\":\"old\"}")).get();
		}
		hashes.withPropertyValues("sawmill.mapping.version=field:v", "sawmill.consumption.share-group-id=users-share")
			.run(context -> {
				assertThat(context).hasNotFailed().hasSingleBean(ShareConsumers.class);
				// pause, resume and redrive act on a consumer group: not offered here
				assertThat(context).doesNotHaveBean(SawmillOperations.class);
				assertThat(context.getBean(ShareConsumers.class).isRunning()).isTrue();
				assertThat(context.getBean(ActiveSetup.class).toString())
					.contains("reads topics users as share group users-share");
				@SuppressWarnings("unchecked")
				ConcurrentMessageListenerContainer<byte[], byte[]> container = context
					.getBean(ConcurrentMessageListenerContainer.class);
				assertThat(container.isRunning()).as("the consumer group's container").isFalse();
				RedisClient client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
				try (StatefulRedisConnection<String, String> reader = client.connect()) {
					await().atMost(Duration.ofSeconds(30))
						.untilAsserted(() -> assertThat(reader.sync().hgetall("user:u1")).containsEntry("name", "new")
							.containsEntry(VersionGuard.VERSION_FIELD, "2"));
				}
				finally {
					client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
				}
			});
	}

	@Test
	void shouldRefuseHashesWithoutAVersionGuardNamingTheFix() {
		hashes.run(context -> {
			assertThat(SawmillAutoConfigurationTests.failure(context).getMessage())
				.contains("sawmill.mapping.version is unset");
			assertThat(SawmillAutoConfigurationTests.failure(context).action()).contains("Set sawmill.mapping.version");
		});
	}

	@Test
	void shouldRefuseExactlyOnceSayingWhatShareModeGivesInstead() {
		hashes.withPropertyValues("sawmill.mapping.version=field:v", "sawmill.delivery=exactly-once").run(context -> {
			assertThat(SawmillAutoConfigurationTests.failure(context).getMessage())
				.contains("exactly-once does not apply");
			assertThat(SawmillAutoConfigurationTests.failure(context).action()).contains("Remove sawmill.delivery");
		});
	}

	@Test
	void shouldRefuseARouteWhoseResultDependsOnOrder() {
		runner
			.withPropertyValues("sawmill.routes[0].name=recent", "sawmill.routes[0].topics=users",
					"sawmill.routes[0].type=LIST", "sawmill.routes[0].key-template=recent:{@key}")
			.run(context -> assertThat(SawmillAutoConfigurationTests.failure(context).getMessage())
				.contains("route 'recent' writes LIST"));
	}

	@Test
	void shouldRefuseAMapperOfTheApplicationsUnlessItDeclaresItselfOrderIndependent() {
		hashes.withUserConfiguration(PlainMapper.class)
			.run(context -> assertThat(SawmillAutoConfigurationTests.failure(context).getMessage())
				.contains("does not declare itself order-independent"));
		hashes.withUserConfiguration(OrderIndependentMapper.class)
			.withPropertyValues("sawmill.consumption.share-group-id=own-mapper")
			.run(context -> assertThat(context).hasNotFailed().hasSingleBean(ShareConsumers.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class PlainMapper {

		@Bean
		RecordMapper plainMapper() {
			return record -> List.of(RedisWrite.command("SET", record.key(), record.value()));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OrderIndependentMapper {

		@Bean
		RecordMapper membersMapper() {
			return new RecordMapper() {

				@Override
				public List<RedisWrite> map(ConsumerRecord<byte[], byte[]> record) {
					return List.of(RedisWrite.command("SADD", "members".getBytes(), record.key()));
				}

				@Override
				public boolean orderIndependent() {
					return true;
				}
			};
		}

	}

}
