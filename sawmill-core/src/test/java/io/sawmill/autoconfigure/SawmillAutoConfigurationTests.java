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

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.sawmill.listener.internal.ListenerConfig;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.json.JsonHashMapper;
import io.sawmill.metrics.internal.GroupLagExporter;
import io.sawmill.metrics.internal.PartitionLagMonitor;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.RedisBatchWriter;
import io.sawmill.redis.internal.ReplicaShortfalls;
import io.sawmill.testkit.KafkaTestBroker;
import io.sawmill.testkit.RedisClusterProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * Configuration errors fail while beans are created, before anything connects. A context
 * that gets further starts {@link StartupCheck}, which asks Kafka for its topics and
 * Redis for a PING, so those cases run against a real broker and a real redis-server. The
 * listener container itself is kept from starting through a
 * {@link SawmillContainerCustomizer}.
 */
class SawmillAutoConfigurationTests {

	private static KafkaTestBroker kafka;

	private static RedisServerProcess redis;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, DataRedisAutoConfiguration.class,
				SawmillAutoConfiguration.class))
		.withUserConfiguration(ContainerNotStarted.class)
		.withPropertyValues("spring.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
				"spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
				"sawmill.startup-timeout=10s", "sawmill.topics=orders");

	@BeforeAll
	static void startServers() {
		kafka = KafkaTestBroker.start().createTopic("orders", 2);
		redis = RedisServerProcess.startNew();
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

	static SawmillConfigurationException failure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		Throwable cause = context.getStartupFailure();
		while (cause != null && !(cause instanceof SawmillConfigurationException)) {
			cause = cause.getCause();
		}
		assertThat(cause).as("a SawmillConfigurationException in %s", context.getStartupFailure())
			.isInstanceOf(SawmillConfigurationException.class);
		return (SawmillConfigurationException) cause;
	}

	@Test
	void shouldTakeTheConsumerGroupFromSpringKafkaWhenSawmillNamesNone() {
		runner
			.withPropertyValues("sawmill.mapping.key-template=user:{id}", "spring.kafka.consumer.group-id=orders-sync")
			.run(context -> assertThat(context.getBean(ListenerConfig.class).groupId()).isEqualTo("orders-sync"));
	}

	@Test
	void shouldRefuseTwoDifferentConsumerGroupsRatherThanPickOne() {
		runner
			.withPropertyValues("sawmill.mapping.key-template=user:{id}", "spring.kafka.consumer.group-id=orders-sync",
					"sawmill.group-id=loader")
			.run(context -> assertThat(failure(context).getMessage()).contains("sawmill.group-id (loader)")
				.contains("spring.kafka.consumer.group-id (orders-sync)"));
	}

	@Test
	void shouldSayWhichMappingGroupAndDeliveryAreActive() {
		runner.withPropertyValues("sawmill.mapping.key-template=user:{id}", "sawmill.delivery=exactly-once")
			.run(context -> {
				ActiveSetup setup = context.getBean(ActiveSetup.class);
				assertThat(setup.toString()).contains("the built-in JSON-to-hash mapping")
					.contains("topics orders")
					.contains("group sawmill")
					.contains("delivery exactly-once");
				assertThat(setup.ignored()).isEmpty();
			});
	}

	@Test
	void shouldNameTheMappingSettingsAMapperBeanOfTheApplicationsIgnores() {
		runner.withUserConfiguration(OwnMapper.class)
			.withPropertyValues("sawmill.mapping.key-template=user:{id}", "sawmill.mapping.ttl=10m")
			.run(context -> {
				ActiveSetup setup = context.getBean(ActiveSetup.class);
				assertThat(setup.toString()).contains("the application's RecordMapper bean");
				assertThat(setup.ignored()).containsExactly("sawmill.mapping.key-template", "sawmill.mapping.ttl");
			});
	}

	@Test
	void shouldRefuseRoutesThatAMapperBeanOfTheApplicationsWouldReplace() {
		runner.withUserConfiguration(OwnMapper.class)
			.withPropertyValues("sawmill.topics=", "sawmill.routes[0].name=profiles", "sawmill.routes[0].topics=orders",
					"sawmill.routes[0].key-template=profile:{@key}")
			.run(context -> assertThat(failure(context).getMessage()).contains("sawmill.routes is set")
				.contains("RecordMapper bean"));
	}

	@Test
	void shouldBuildTheDataPathFromProperties() {
		runner.withPropertyValues("sawmill.mapping.key-template=user:{id}", "sawmill.mapping.ttl=10m",
				"sawmill.mapping.fields=name,address", "sawmill.group-id=loader", "sawmill.concurrency=2",
				"sawmill.batch-size=2000", "sawmill.pipeline.max-commands-per-chunk=500", "sawmill.pipeline.timeout=3s")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(ListenerConfig.class)
					.hasSingleBean(PipelineConfig.class)
					.hasSingleBean(RecordMapper.class)
					.hasSingleBean(RedisBatchWriter.class)
					.hasSingleBean(ReplicaShortfalls.class)
					.hasSingleBean(SawmillMetrics.class)
					.hasSingleBean(PartitionLagMonitor.class)
					.hasSingleBean(StartupCheck.class)
					.hasSingleBean(ConcurrentMessageListenerContainer.class)
					.hasBean("sawmillAdmin");
				ListenerConfig listener = context.getBean(ListenerConfig.class);
				assertThat(listener.topics()).containsExactly("orders");
				assertThat(listener.groupId()).isEqualTo("loader");
				assertThat(listener.concurrency()).isEqualTo(2);
				assertThat(listener.batchSize()).isEqualTo(2000);
				PipelineConfig pipeline = context.getBean(PipelineConfig.class);
				assertThat(pipeline.maxCommandsPerChunk()).isEqualTo(500);
				assertThat(pipeline.timeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(context.getBean(RecordMapper.class)).isInstanceOfSatisfying(JsonHashMapper.class, mapper -> {
					assertThat(mapper.config().keyTemplateSource()).isEqualTo("user:{id}");
					assertThat(mapper.config().fields()).containsExactly("name", "address");
					assertThat(mapper.config().ttl()).isEqualTo(Duration.ofMinutes(10));
				});
				assertThat(context.getBean(RedisBatchWriter.class)).isInstanceOf(LettucePipelinedWriter.class);
				assertThat(context.getBean(StartupCheck.class).isRunning()).isTrue();
				ConcurrentMessageListenerContainer<?, ?> container = context
					.getBean(ConcurrentMessageListenerContainer.class);
				assertThat(container.getConcurrency()).isEqualTo(2);
				assertThat(container.getContainerProperties().getAckMode())
					.isEqualTo(ContainerProperties.AckMode.MANUAL_IMMEDIATE);
			});
	}

	@Test
	void shouldWriteToRedisThroughTheConfiguredWriterOnceStarted() {
		runner.withPropertyValues("sawmill.mapping.key-template={@key}").run(context -> {
			assertThat(context).hasNotFailed();
			PipelineResult result = context.getBean(RedisBatchWriter.class)
				.write(List.of(RedisWrite.hset("autoconfig:check", Map.of("ok", "1"))));
			assertThat(result.succeeded()).isTrue();
			assertThat(redis.command("HEXISTS", "autoconfig:check", "ok")).isEqualTo(":1");
		});
	}

	@Test
	void shouldTurnLettucesHashIndexedCommandQueueOffOnTheClientTheWriterConnectsWith() {
		runner.withPropertyValues("sawmill.mapping.key-template={@key}").run(context -> {
			assertThat(context).hasNotFailed();
			LettuceConnectionFactory factory = context.getBean(LettuceConnectionFactory.class);
			assertThat(factory.getClientConfiguration().getClientOptions())
				.hasValueSatisfying(options -> assertThat(options.isUseHashIndexedQueue()).isFalse());
			assertThat(factory.getNativeClient().getOptions().isUseHashIndexedQueue()).isFalse();
			// a batch larger than a chunk still goes through, every reply counted
			List<RedisWrite> writes = IntStream.range(0, 5_000)
				.mapToObj(i -> RedisWrite.hset("queue:check:" + i, Map.of("n", Integer.toString(i))))
				.collect(Collectors.toList());
			PipelineResult result = context.getBean(RedisBatchWriter.class).write(writes);
			assertThat(result.succeeded()).isTrue();
			assertThat(result.commands()).isEqualTo(5_000);
			try (RedisConnection connection = factory.getConnection()) {
				assertThat(connection.hashCommands().hGet(utf8("queue:check:4999"), utf8("n"))).asString(UTF_8)
					.isEqualTo("4999");
			}
		});
	}

	@Test
	void shouldLeaveLettucesHashIndexedCommandQueueOnWhenAskedTo() {
		runner
			.withPropertyValues("sawmill.mapping.key-template={@key}",
					"sawmill.pipeline.hash-indexed-command-queue=true")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(LettuceConnectionFactory.class)
					.getNativeClient()
					.getOptions()
					.isUseHashIndexedQueue()).isTrue();
			});
	}

	@Test
	void shouldUseTheApplicationsRecordMapperInsteadOfTheJsonMapper() {
		runner.withUserConfiguration(UserMapper.class).run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(RecordMapper.class);
			assertThat(context.getBean(RecordMapper.class)).isSameAs(context.getBean(UserMapper.class).mapper);
			assertThat(context).doesNotHaveBean(JsonHashMapper.class);
		});
	}

	@Test
	void shouldUseTheApplicationsWriterInsteadOfTheLettuceWriter() {
		runner.withUserConfiguration(UserWriter.class)
			.withPropertyValues("sawmill.mapping.key-template={@key}")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(RedisBatchWriter.class);
				assertThat(context.getBean(RedisBatchWriter.class)).isSameAs(context.getBean(UserWriter.class).writer);
			});
	}

	@Test
	void shouldExportTheGroupsBrokerSideLagOnEveryPartitionUnlessTurnedOff() {
		ApplicationContextRunner observed = runner
			.withConfiguration(AutoConfigurations.of(SawmillObservabilityAutoConfiguration.class))
			.withPropertyValues("sawmill.mapping.key-template=order:{id}", "sawmill.metrics.cpu-throttling=false",
					"sawmill.metrics.summary.enabled=false");
		observed.run(context -> {
			assertThat(context).hasNotFailed().hasSingleBean(GroupLagExporter.class);
			GroupLagExporter exporter = context.getBean(GroupLagExporter.class);
			exporter.refresh();
			assertThat(exporter.lags()).as("the listener never started: every partition is reported all the same")
				.hasSize(2)
				.allSatisfy((partition, lag) -> assertThat(partition.topic()).isEqualTo("orders"));
			assertThat(context.getBean(SawmillMetrics.class).registry().find("sawmill.group.lag.records").gauges())
				.hasSize(2);
		});
		observed.withPropertyValues("sawmill.metrics.group-lag=false")
			.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(GroupLagExporter.class));
	}

	@Test
	void shouldCreateNothingWhenDisabled() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, DataRedisAutoConfiguration.class,
					SawmillAutoConfiguration.class))
			.withPropertyValues("sawmill.enabled=false")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(SawmillProperties.class)
					.doesNotHaveBean(ListenerConfig.class)
					.doesNotHaveBean(RecordMapper.class)
					.doesNotHaveBean(RedisBatchWriter.class)
					.doesNotHaveBean(SawmillMetrics.class)
					.doesNotHaveBean(StartupCheck.class)
					.doesNotHaveBean(PartitionLagMonitor.class)
					.doesNotHaveBean(Admin.class)
					.doesNotHaveBean(ConcurrentMessageListenerContainer.class);
			});
	}

	@Test
	void shouldFailNamingTheKeyTemplatePropertyWhenItIsMissing() {
		runner.run(context -> {
			SawmillConfigurationException failure = failure(context);
			assertThat(failure).hasMessageContaining("sawmill.mapping.key-template");
			assertThat(failure.action()).contains("sawmill.mapping.key-template").contains("RecordMapper");
		});
	}

	@Test
	void shouldFailNamingTheKeyTemplateWhenItIsInvalid() {
		runner.withPropertyValues("sawmill.mapping.key-template=user:{id").run(context -> {
			assertThat(failure(context)).hasMessageContaining("sawmill.mapping.")
				.hasMessageContaining("keyTemplate 'user:{id' is invalid");
		});
	}

	@Test
	void shouldFailNamingBatchSizeWhenItIsOutOfRange() {
		runner.withPropertyValues("sawmill.mapping.key-template={@key}", "sawmill.batch-size=0").run(context -> {
			assertThat(failure(context)).hasMessageContaining("batch-size")
				.hasMessageContaining("batchSize must be between 1 and 100000, but was 0");
		});
	}

	@Test
	void shouldFailNamingTopicsWhenNoneAreSet() {
		runner.withPropertyValues("sawmill.mapping.key-template={@key}", "sawmill.topics=").run(context -> {
			assertThat(failure(context)).hasMessageContaining("topics must name at least one topic");
		});
	}

	@Test
	void shouldFailNamingNegativeTtl() {
		runner.withPropertyValues("sawmill.mapping.key-template={@key}", "sawmill.mapping.ttl=-1s").run(context -> {
			assertThat(failure(context)).hasMessageContaining("sawmill.mapping.")
				.hasMessageContaining("ttl must be zero (no expiry) or positive, but was PT-1S");
		});
	}

	@Test
	void shouldFailWhenRetriesCouldOutlastTheMaxPollInterval() {
		runner
			.withPropertyValues("sawmill.mapping.key-template={@key}", "sawmill.pipeline.timeout=70s",
					"sawmill.retry.max-attempts=5")
			.run(context -> {
				SawmillConfigurationException failure = failure(context);
				assertThat(failure).hasMessageContaining("sawmill.pipeline.timeout × sawmill.retry.max-attempts")
					.hasMessageContaining("max.poll.interval.ms is PT5M");
				assertThat(failure.action()).contains("max.poll.interval.ms");
			});
	}

	@Test
	void shouldAcceptLongRetriesWhenTheMaxPollIntervalIsRaised() {
		runner
			.withPropertyValues("sawmill.mapping.key-template={@key}", "sawmill.pipeline.timeout=70s",
					"sawmill.retry.max-attempts=5", "spring.kafka.consumer.properties[max.poll.interval.ms]=600000")
			.run(context -> assertThat(context).hasNotFailed());
	}

	@Test
	void shouldFailStartWhenATopicDoesNotExist() {
		runner.withPropertyValues("sawmill.mapping.key-template={@key}", "sawmill.topics=orders,missing-topic")
			.run(context -> {
				SawmillConfigurationException failure = failure(context);
				assertThat(failure).hasMessageContaining("[missing-topic] do not exist");
				assertThat(failure.action()).contains("sawmill.topics");
			});
	}

	@Test
	void shouldFailStartWhenRedisCannotBeReached() {
		int closedPort = RedisServerProcess.freePort();
		runner.withPropertyValues("sawmill.mapping.key-template={@key}", "spring.data.redis.port=" + closedPort)
			.run(context -> {
				SawmillConfigurationException failure = failure(context);
				assertThat(failure).hasMessageContaining("Redis at 127.0.0.1:" + closedPort + " cannot be used");
				assertThat(failure.action()).contains("spring.data.redis.host/port");
			});
	}

	@Test
	void shouldOpenNothingOnRedisWhenTheContextFailsBeforeItStarts() {
		try (RedisServerProcess own = RedisServerProcess.startNew()) {
			long before = info(own, "total_connections_received");
			runner
				.withPropertyValues("sawmill.mapping.key-template={@key}", "spring.data.redis.port=" + own.port(),
						"sawmill.concurrency=3")
				.withUserConfiguration(FailsOnceTheStartupCheckExists.class)
				.run(context -> assertThat(context).hasFailed());

			// Redis is checked, and the writer's connections opened, only once the
			// context starts: the one connection since is INFO's own
			assertThat(info(own, "total_connections_received")).isEqualTo(before + 1);
		}
	}

	@Test
	void shouldCheckRedisAgainWhenTheContextIsStartedAgain() {
		try (RedisServerProcess own = RedisServerProcess.startNew()) {
			runner
				.withPropertyValues("sawmill.mapping.key-template={@key}", "spring.data.redis.port=" + own.port(),
						"sawmill.pipeline.timeout=2s")
				.run(context -> {
					assertThat(context).hasNotFailed();
					context.stop();
					own.kill();

					assertThatThrownBy(context::start)
						.hasStackTraceContaining("Redis at 127.0.0.1:" + own.port() + " cannot be used");
				});
		}
	}

	/**
	 * A field of {@code INFO}, read on a connection of its own (which the connection
	 * counts include).
	 */
	private static long info(RedisServerProcess server, String field) {
		RedisClient client = RedisClient.create(RedisURI.create(server.host(), server.port()));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			return connection.sync()
				.info()
				.lines()
				.filter(line -> line.startsWith(field + ":"))
				.mapToLong(line -> Long.parseLong(line.substring(field.length() + 1).trim()))
				.findFirst()
				.orElseThrow();
		}
		finally {
			client.shutdown();
		}
	}

	@Test
	void shouldNameTheClusterNodesWhenARedisClusterCannotBeReached() {
		int first = RedisServerProcess.freePort();
		int second = RedisServerProcess.freePort();
		runner
			.withPropertyValues("sawmill.mapping.key-template={@key}",
					"spring.data.redis.cluster.nodes=127.0.0.1:" + first + ",127.0.0.1:" + second)
			.run(context -> {
				SawmillConfigurationException failure = failure(context);
				assertThat(failure).hasMessageContaining("Redis Cluster at ")
					.hasMessageContaining("127.0.0.1:" + first)
					.hasMessageContaining("127.0.0.1:" + second)
					.hasMessageContaining(" cannot be used");
				assertThat(failure.action()).contains("spring.data.redis.cluster.nodes");
			});
	}

	@Test
	void shouldTakeExactlyOnceDeliveryOnARedisClusterAsOnOneServer() {
		int port = RedisServerProcess.freePort();
		runner
			.withPropertyValues("sawmill.mapping.key-template={@key}", "sawmill.delivery=exactly-once",
					"spring.data.redis.cluster.nodes=127.0.0.1:" + port)
			.run(context -> {
				// it gets as far as connecting: only the unreachable cluster stops it
				SawmillConfigurationException failure = failure(context);
				assertThat(failure).hasMessageContaining("Redis Cluster at ")
					.hasMessageContaining("127.0.0.1:" + port)
					.hasMessageNotContaining("exactly-once");
			});
	}

	@Test
	void shouldCloseTheWritersClusterConnectionsBeforeLettucesClientSoThatShutdownWarnsOfNothing() {
		Logger lettuce = (Logger) LoggerFactory.getLogger("io.lettuce.core.RedisChannelHandler");
		ListAppender<ILoggingEvent> logged = new ListAppender<>();
		logged.start();
		lettuce.addAppender(logged);
		try (RedisClusterProcess cluster = RedisClusterProcess.startNew()) {
			String nodes = cluster.ports()
				.stream()
				.map(port -> cluster.host() + ":" + port)
				.collect(Collectors.joining(","));
			runner
				.withPropertyValues("sawmill.mapping.key-template={@key}", "sawmill.concurrency=2",
						"spring.data.redis.cluster.nodes=" + nodes)
				.run(context -> assertThat(context).hasNotFailed());
		}
		finally {
			lettuce.detachAppender(logged);
		}

		assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage)
			.doesNotContain("Connection is already closed");
	}

	@Test
	void shouldExplainConfigurationFailureInsteadOfPrintingAStackTrace() {
		runner.run(context -> {
			FailureAnalysis analysis = new SawmillFailureAnalyzer().analyze(context.getStartupFailure());

			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).isEqualTo("sawmill.mapping.key-template is not set");
			assertThat(analysis.getAction()).contains("Set sawmill.mapping.key-template");
			assertThat(analysis.getCause()).isInstanceOf(SawmillConfigurationException.class);
		});
	}

	/**
	 * Keeps the listener container from polling: these tests are about the beans, not the
	 * data.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ContainerNotStarted {

		@Bean
		SawmillContainerCustomizer doNotStartContainer() {
			return container -> container.setAutoStartup(false);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnMapper {

		@Bean
		RecordMapper ownMapper() {
			return record -> List.of();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FailsOnceTheStartupCheckExists {

		@Bean
		Object failsOnceTheStartupCheckExists(StartupCheck check) {
			throw new IllegalStateException("fails after the start-up check was created, before the context starts");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserMapper {

		final RecordMapper mapper = record -> List.of();

		@Bean
		RecordMapper userMapper() {
			return mapper;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserWriter {

		final RedisBatchWriter writer = new RedisBatchWriter() {
			@Override
			public PipelineResult write(List<RedisWrite> writes) {
				return new PipelineResult(writes.size(), 1, List.of());
			}

			@Override
			public void ping() {
			}

			@Override
			public void close() {
			}
		};

		@Bean
		RedisBatchWriter userWriter() {
			return writer;
		}

	}

	private static byte[] utf8(String text) {
		return text.getBytes(UTF_8);
	}

}
