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

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

import io.lettuce.core.tracing.Tracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.admin.internal.SawmillOperations;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.deadletter.internal.DeadLetterBrake;
import io.sawmill.deadletter.internal.KafkaDeadLetterPublisher;
import io.sawmill.listener.internal.ListenerConfig;
import io.sawmill.listener.internal.ListenerProgress;
import io.sawmill.listener.internal.RedisCircuit;
import io.sawmill.listener.internal.SawmillContainers;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.VersionGuard;
import io.sawmill.mapping.json.JsonHashMapper;
import io.sawmill.metrics.internal.ConsumerRecordTimestamps;
import io.sawmill.metrics.internal.PartitionLagMonitor;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.redis.internal.RedisBatchWriter;
import io.sawmill.redis.internal.ReplicaShortfalls;

/**
 * Sawmill's data path from {@code sawmill.*}, {@code spring.kafka.*} and
 * {@code spring.data.redis.*} properties. Every bean backs off when the application
 * defines its own of the same type; a {@link RecordMapper} bean replaces the built-in
 * JSON-to-hash mapping.
 */
@AutoConfiguration(after = { KafkaAutoConfiguration.class, DataRedisAutoConfiguration.class })
@ConditionalOnClass({ ConcurrentMessageListenerContainer.class, LettuceConnectionFactory.class })
@ConditionalOnBooleanProperty(name = "sawmill.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SawmillProperties.class)
public final class SawmillAutoConfiguration {

	private static final Logger log = LoggerFactory.getLogger(SawmillAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	ListenerConfig sawmillListenerConfig(SawmillProperties properties, KafkaProperties kafka) {
		return SawmillConfigAdapter.listener(properties, kafka.getConsumer().getGroupId());
	}

	@Bean
	@ConditionalOnMissingBean
	PipelineConfig sawmillPipelineConfig(SawmillProperties properties,
			ObjectProvider<LettuceConnectionFactory> connectionFactory) {
		LettuceConnectionFactory factory = connectionFactory.getIfAvailable();
		boolean sentinel = factory != null && factory.getSentinelConfiguration() != null;
		PipelineConfig pipeline = SawmillConfigAdapter.pipeline(properties, sentinel);
		if (sentinel && pipeline.waitForReplicas() > 0) {
			log.info(
					"Redis is Sentinel-managed: each batch waits for {} replica(s) to confirm it before its offsets are "
							+ "committed (sawmill.pipeline.wait-for-replicas)",
					pipeline.waitForReplicas());
		}
		return pipeline;
	}

	/**
	 * Says once which mapper, topics, group and delivery mode are active and which
	 * settings are ignored; refuses routes a mapper bean of the application's would
	 * replace.
	 */
	@Bean
	ActiveSetup sawmillActiveSetup(SawmillProperties properties, ListenerConfig listener, RecordMapper mapper,
			Environment environment) {
		ActiveSetup setup = ActiveSetup.of(properties, listener, mapper, environment);
		setup.log();
		return setup;
	}

	@Bean
	@ConditionalOnMissingBean
	RecordMapper sawmillRecordMapper(SawmillProperties properties) {
		if (!properties.getRoutes().isEmpty()) {
			return MappingConfigAdapter.routeMapper(properties);
		}
		return JsonHashMapper.of(MappingConfigAdapter.mapping(properties));
	}

	/**
	 * Lettuce's hash-indexed command queue off on the client of Boot's Redis connection
	 * factory (the client Sawmill's writer connects with): every command a batch sends is
	 * added to that index and removed from it when its reply arrives, a large share of
	 * the event loop's time (docs/benchmarks.md), and the index only makes removing a
	 * command whose write failed O(1) instead of O(commands in flight).
	 * {@code sawmill.pipeline.hash-indexed-command-queue=true} keeps it on. An
	 * application that defines its own connection factory sets its client options itself.
	 */
	@Bean
	@ConditionalOnBooleanProperty(name = "sawmill.pipeline.hash-indexed-command-queue", havingValue = false,
			matchIfMissing = true)
	LettuceClientOptionsBuilderCustomizer sawmillLettuceCommandQueue() {
		return options -> options.useHashIndexQueue(false);
	}

	/**
	 * Lettuce's per-command observations off on the client of Boot's Redis connection
	 * factory. With an {@code ObservationRegistry} (Actuator), Boot's
	 * {@code LettuceObservationAutoConfiguration} has Lettuce observe every command it
	 * sends: on the cluster path, where the writer sends each command through Lettuce's
	 * API, that makes a batch's write markedly slower and costlier in CPU
	 * (docs/benchmarks.md). The standalone path writes whole chunks to the channel and is
	 * not observed either way. Ordered last, so it wins over Boot's customizer, which
	 * this configuration runs after. {@code sawmill.pipeline.command-observations=true}
	 * keeps them.
	 */
	@Bean
	@ConditionalOnBooleanProperty(name = "sawmill.pipeline.command-observations", havingValue = false,
			matchIfMissing = true)
	@Order(Ordered.LOWEST_PRECEDENCE)
	ClientResourcesBuilderCustomizer sawmillLettuceCommandObservations() {
		return resources -> resources.tracing(Tracing.disabled());
	}

	@Bean
	@ConditionalOnMissingBean
	RedisBatchWriter sawmillRedisWriter(LettuceConnectionFactory connectionFactory, PipelineConfig pipeline,
			SawmillProperties properties) {
		// unset on a Cluster: wait for one replica when every master has one (decided
		// once connected)
		boolean waitIfClusterReplicated = connectionFactory.isClusterAware()
				&& properties.getPipeline().getWaitForReplicas() == null;
		// version-guarded writes call the sawmill Function library: loaded when the
		// writer opens
		List<String> functionLibraries = properties.getMapping().getVersion() != null
				? List.of(VersionGuard.librarySource()) : List.of();
		return new LettucePipelinedWriter(() -> {
			if (!connectionFactory.isRunning()) {
				connectionFactory.start();
			}
			return connectionFactory.getNativeClient();
		}, pipeline, waitIfClusterReplicated, functionLibraries);
	}

	/**
	 * The masters the writer found with fewer replicas attached than
	 * {@code wait-for-replicas} (sawmill.pipeline.replica-shortfall), gauged as
	 * {@code sawmill.redis.replica.shortfall}; none for a writer of the application's
	 * own.
	 */
	@Bean
	@ConditionalOnMissingBean
	ReplicaShortfalls sawmillReplicaShortfalls(RedisBatchWriter writer, SawmillMetrics metrics) {
		ReplicaShortfalls shortfalls = writer instanceof LettucePipelinedWriter lettuce ? lettuce.replicaShortfalls()
				: ReplicaShortfalls.none();
		metrics.replicaShortfalls(shortfalls);
		return shortfalls;
	}

	@Bean
	@ConditionalOnMissingBean
	SawmillMetrics sawmillMetrics(ObjectProvider<MeterRegistry> registry, ListenerConfig listener,
			SawmillProperties properties) {
		return new SawmillMetrics(registry.getIfAvailable(SimpleMeterRegistry::new), listener.groupId(),
				properties.getMetrics().getSloBuckets());
	}

	@Bean
	@ConditionalOnMissingBean
	ListenerProgress sawmillListenerProgress(ListenerConfig listener, SawmillMetrics metrics) {
		return ListenerProgress.of(listener, metrics, Clock.systemUTC());
	}

	@Bean
	@ConditionalOnMissingBean
	RedisCircuit sawmillRedisCircuit(SawmillProperties properties, ListenerConfig listener) {
		return SawmillConfigAdapter.circuit(properties, listener.groupId());
	}

	@Bean
	@ConditionalOnMissingBean
	DeadLetterPublisher sawmillDeadLetterPublisher(SawmillProperties properties, KafkaProperties kafka,
			ObjectProvider<KafkaConnectionDetails> connectionDetails, DeadLetterTopics sawmillDeadLetterTopics) {
		if (!properties.getDeadLetter().isEnabled()) {
			return DeadLetterPublisher.loggingOnly();
		}
		Map<String, Object> producer = new HashMap<>(kafka.buildProducerProperties());
		connectionDetails.ifAvailable(details -> producer.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
				String.join(",", details.getProducer().getBootstrapServers())));
		return KafkaDeadLetterPublisher.of(producer, SawmillConfigAdapter.deadLetter(properties),
				sawmillDeadLetterTopics::maxRequestSize);
	}

	@Bean
	DeadLetterTopics sawmillDeadLetterTopics(Admin sawmillAdmin, ListenerConfig listener,
			SawmillProperties properties) {
		SawmillProperties.DeadLetter deadLetter = properties.getDeadLetter();
		return new DeadLetterTopics(sawmillAdmin, listener.topics(), deadLetter.isEnabled(),
				deadLetter.getTopicSuffix(), deadLetter.isCreateTopics(), properties.getStartupTimeout(),
				SawmillConfigAdapter.routeDeadLetterTopics(properties),
				SawmillConfigAdapter.routeDeadLetterPatterns(properties));
	}

	/**
	 * The dead-letter brake in front of the dead-letter publisher (whichever it is): when
	 * it engages, the listener containers are paused until an operator releases it or it
	 * releases itself ({@code sawmill.dead-letter.brake.release-after}); closed with the
	 * context, which stops its timer.
	 */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "sawmill.dead-letter.brake.enabled", matchIfMissing = true)
	DeadLetterBrake sawmillDeadLetterBrake(SawmillProperties properties) {
		return DeadLetterBrake.of(SawmillConfigAdapter.deadLetterBrake(properties), Clock.systemUTC());
	}

	@Bean(name = "sawmillAdmin", destroyMethod = "close")
	Admin sawmillAdmin(KafkaProperties kafka, ObjectProvider<KafkaConnectionDetails> connectionDetails) {
		Map<String, Object> properties = new HashMap<>(kafka.buildAdminProperties());
		connectionDetails.ifAvailable(details -> properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
				String.join(",", details.getAdmin().getBootstrapServers())));
		return SawmillAdmin.create(properties);
	}

	@Bean
	StartupCheck sawmillStartupCheck(Admin sawmillAdmin, ListenerConfig listener, SawmillProperties properties,
			RedisBatchWriter writer, LettuceConnectionFactory connectionFactory, KafkaProperties kafka,
			ObjectProvider<KafkaConnectionDetails> connectionDetails, DeadLetterTopics sawmillDeadLetterTopics) {
		KafkaConnectionDetails details = connectionDetails.getIfAvailable();
		List<String> servers = details != null ? details.getAdmin().getBootstrapServers() : kafka.getBootstrapServers();
		return new StartupCheck(sawmillAdmin, listener.topics(), listener.topicPattern(), sawmillDeadLetterTopics,
				String.join(",", servers), writer, listener.concurrency(),
				StartupCheck.RedisTarget.of(connectionFactory), properties.getStartupTimeout());
	}

	@Bean
	@ConditionalOnMissingBean
	PartitionLagMonitor sawmillLagMonitor(Admin sawmillAdmin, ListenerConfig listener, SawmillMetrics metrics,
			SawmillProperties properties, KafkaProperties kafka,
			ObjectProvider<KafkaConnectionDetails> connectionDetails) {
		return new PartitionLagMonitor(sawmillAdmin, listener.topics(), listener.topicPattern(), metrics,
				properties.getMetrics().getLagInterval(),
				ConsumerRecordTimestamps.of(consumerProperties(kafka, connectionDetails)), Clock.systemUTC());
	}

	@Bean
	ConcurrentMessageListenerContainer<byte[], byte[]> sawmillListenerContainer(KafkaProperties kafka,
			ObjectProvider<KafkaConnectionDetails> connectionDetails, ListenerConfig listener, PipelineConfig pipeline,
			RecordMapper mapper, RedisBatchWriter writer, DeadLetterPublisher deadLetters, RedisCircuit circuit,
			SawmillMetrics metrics, ListenerProgress progress, PartitionLagMonitor lagMonitor,
			ObjectProvider<SawmillContainerCustomizer> customizers, ObjectProvider<DeadLetterBrake> brake,
			SawmillProperties properties) {
		Map<String, Object> consumer = consumerProperties(kafka, connectionDetails);
		SawmillConfigAdapter.instanceId(properties, consumer);
		SawmillConfigAdapter.checkPollInterval(listener, pipeline, consumer);
		DeadLetterBrake deadLetterBrake = brake.getIfAvailable();
		ConcurrentMessageListenerContainer<byte[], byte[]> container = SawmillContainers.create(consumer, listener,
				mapper, writer, deadLetterBrake != null ? deadLetterBrake.guard(deadLetters) : deadLetters, circuit,
				metrics, progress);
		if (deadLetterBrake != null) {
			deadLetterBrake.onEngaged(container::pause);
			deadLetterBrake.onReleased(container::resume);
			metrics.deadLetterBrake(() -> deadLetterBrake.engaged().isPresent());
		}
		// the lag monitor reports the partitions this instance owns, refreshed right
		// after each assignment
		SawmillContainers.alsoNotifyOnRebalance(container, lagMonitor);
		customizers.orderedStream().forEach(customizer -> customizer.customize(container));
		return container;
	}

	/**
	 * The operator's view and operations behind the sawmill endpoint
	 * (docs/operations.md#admin-operations); they act on the consumer group's container,
	 * so a share group has none.
	 */
	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	@ConditionalOnProperty(name = "sawmill.consumption.mode", havingValue = "group", matchIfMissing = true)
	SawmillOperations sawmillOperations(ConcurrentMessageListenerContainer<byte[], byte[]> sawmillListenerContainer,
			Admin sawmillAdmin, ListenerConfig listener, RedisCircuit circuit, ObjectProvider<DeadLetterBrake> brake,
			SawmillMetrics metrics, SawmillProperties properties, KafkaProperties kafka,
			ObjectProvider<KafkaConnectionDetails> connectionDetails) {
		Map<String, Object> producer = new HashMap<>(kafka.buildProducerProperties());
		connectionDetails.ifAvailable(details -> producer.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
				String.join(",", details.getProducer().getBootstrapServers())));
		SawmillOperations operations = new SawmillOperations(sawmillListenerContainer, sawmillAdmin, listener.topics(),
				listener.groupId(), circuit, brake.getIfAvailable(), metrics.registry(),
				consumerProperties(kafka, connectionDetails), producer,
				properties.getDeadLetter().getMaxRedriveRecords());
		Map<String, List<String>> routes = new HashMap<>();
		Map<String, Pattern> patternRoutes = new HashMap<>();
		properties.getRoutes().stream().filter(route -> route.getName() != null).forEach(route -> {
			if (!route.getTopics().isEmpty()) {
				routes.put(route.getName(), route.getTopics());
			}
			else if (route.getTopicPattern() != null && !route.getTopicPattern().isBlank()) {
				patternRoutes.put(route.getName(), Pattern.compile(route.getTopicPattern()));
			}
		});
		operations.withRoutes(routes).withPatternRoutes(patternRoutes);
		SawmillContainers.alsoNotifyOnRebalance(sawmillListenerContainer, operations);
		return operations;
	}

	@Bean
	GracefulStop sawmillGracefulStop(ConcurrentMessageListenerContainer<byte[], byte[]> sawmillListenerContainer,
			RedisBatchWriter writer) {
		return new GracefulStop(sawmillListenerContainer, writer);
	}

	private static Map<String, Object> consumerProperties(KafkaProperties kafka,
			ObjectProvider<KafkaConnectionDetails> connectionDetails) {
		Map<String, Object> consumer = new HashMap<>(kafka.buildConsumerProperties());
		connectionDetails.ifAvailable(details -> consumer.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
				String.join(",", details.getConsumer().getBootstrapServers())));
		return consumer;
	}

}
