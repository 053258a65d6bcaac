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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.sawmill.deadletter.internal.DeadLetterBrake;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.testkit.KafkaTestBroker;
import io.sawmill.testkit.RedisServerProcess;

/**
 * The dead-letter beans against a real broker: topics sized from their source topics, the
 * brake on by default with its health contribution, gauge and endpoint, and off when
 * asked.
 */
class DeadLetterAutoConfigurationTests {

	private static final int SOURCE_MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

	private static KafkaTestBroker kafka;

	private static RedisServerProcess redis;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, DataRedisAutoConfiguration.class,
				SawmillAutoConfiguration.class, SawmillObservabilityAutoConfiguration.class))
		.withUserConfiguration(SawmillAutoConfigurationTests.ContainerNotStarted.class)
		.withPropertyValues("spring.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
				"spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
				"sawmill.startup-timeout=10s", "sawmill.mapping.key-template={@key}");

	@BeforeAll
	static void startServers() throws Exception {
		kafka = KafkaTestBroker.start().createTopic("orders", 2);
		redis = RedisServerProcess.startNew();
		try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
			admin
				.createTopics(List.of(new NewTopic("images", 3, (short) 1)
					.configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(SOURCE_MAX_MESSAGE_BYTES)))))
				.all()
				.get(30, TimeUnit.SECONDS);
		}
	}

	@AfterAll
	static void stopServers() {
		if (kafka != null) {
			kafka.close();
		}
		if (redis != null) {
			redis.close();
		}
	}

	@Test
	void shouldCreateTheDeadLetterTopicWithTheSourceTopicsMaxMessageBytesPlusRoomForHeaders() {
		runner.withPropertyValues("sawmill.topics=images,orders", "sawmill.group-id=sizing").run(context -> {
			assertThat(context).hasNotFailed();
			int images = SOURCE_MAX_MESSAGE_BYTES + DeadLetterTopics.HEADER_HEADROOM;
			assertThat(maxMessageBytes(context.getBean("sawmillAdmin", Admin.class), "images.DLT")).isEqualTo(images);
			assertThat(maxMessageBytes(context.getBean("sawmillAdmin", Admin.class), "orders.DLT"))
				.isEqualTo(DeadLetterTopics.KAFKA_DEFAULT_MAX_MESSAGE_BYTES + DeadLetterTopics.HEADER_HEADROOM);
			assertThat(context.getBean(DeadLetterTopics.class).maxRequestSize()).as("the largest source topic's")
				.isEqualTo(images);
		});
	}

	@Test
	void shouldCreateAPatternRoutesDeadLetterTopicFromTheMatchingTopicsOrWithTheBrokersDefaultsWhenNoneMatchYet()
			throws Exception {
		try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
			Map<Pattern, String> byPattern = new LinkedHashMap<>();
			byPattern.put(Pattern.compile("ima[g]es"), "dlt-images");
			byPattern.put(Pattern.compile("later-.*"), "dlt-later");
			DeadLetterTopics topics = new DeadLetterTopics(admin, List.of(), true, ".DLT", true, Duration.ofSeconds(10),
					Map.of(), byPattern);

			topics.ensure(admin.listTopics().names().get(30, TimeUnit.SECONDS), kafka.bootstrapServers());

			assertThat(topics.topicFor("images")).isEqualTo("dlt-images");
			assertThat(topics.topicFor("later-eu")).isEqualTo("dlt-later");
			assertThat(topics.topicFor("orders")).isEqualTo("orders.DLT");
			// a topic just created may not be described by every broker path yet
			await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
				assertThat(admin.describeTopics(List.of("dlt-images"))
					.allTopicNames()
					.get(30, TimeUnit.SECONDS)
					.get("dlt-images")
					.partitions()).hasSize(3);
				assertThat(maxMessageBytes(admin, "dlt-images"))
					.isEqualTo(SOURCE_MAX_MESSAGE_BYTES + DeadLetterTopics.HEADER_HEADROOM);
			});
			assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains("dlt-later");
		}
	}

	@Test
	void shouldGuardDeadLettersWithTheBrakeByDefaultReportingItInHealthAGaugeAndTheEndpoint() {
		runner.withPropertyValues("sawmill.topics=orders").run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(DeadLetterBrake.class).hasSingleBean(SawmillEndpoint.class);
			DeadLetterBrake brake = context.getBean(DeadLetterBrake.class);
			assertThat(brake.config().deadLettersToTrip()).isEqualTo(500);
			HealthIndicator health = context.getBean("sawmillDeadLetterBrakeHealthIndicator", HealthIndicator.class);
			assertThat(health.health().getStatus()).isEqualTo(Status.UP);
			assertThat(context.getBean(SawmillMetrics.class)
				.registry()
				.get("sawmill.dead.letter.brake.engaged")
				.gauge()
				.value()).isZero();
		});
	}

	@Test
	void shouldHaveNoBrakeWhenItIsDisabledButKeepTheEndpointWithoutIt() throws Exception {
		runner.withPropertyValues("sawmill.topics=orders", "sawmill.dead-letter.brake.enabled=false").run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(DeadLetterBrake.class)
				.hasSingleBean(SawmillEndpoint.class)
				.doesNotHaveBean("sawmillDeadLetterBrakeHealthIndicator");
			assertThat(context.getBean(SawmillEndpoint.class).read(SawmillEndpoint.BRAKE)).isNull();
			assertThat(
					context.getBean(SawmillMetrics.class).registry().find("sawmill.dead.letter.brake.engaged").gauge())
				.isNull();
		});
	}

	@Test
	void shouldFailStartNamingTheBrakePropertyWhenItsValueIsInvalid() {
		runner.withPropertyValues("sawmill.topics=orders", "sawmill.dead-letter.brake.window=0").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessage(
						"Invalid sawmill.dead-letter.brake.*: window must be between 1 and 1000000 records, but was 0");
		});
	}

	/**
	 * A topic just created may not be known to every part of the broker yet: asked until
	 * it is.
	 */
	private static int maxMessageBytes(Admin admin, String topic) {
		ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
		return Awaitility.await()
			.atMost(Duration.ofSeconds(30))
			.ignoreExceptionsInstanceOf(ExecutionException.class)
			.until(() -> Integer.parseInt(admin.describeConfigs(List.of(resource))
				.all()
				.get(30, TimeUnit.SECONDS)
				.get(resource)
				.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG)
				.value()), bytes -> true);
	}

}
