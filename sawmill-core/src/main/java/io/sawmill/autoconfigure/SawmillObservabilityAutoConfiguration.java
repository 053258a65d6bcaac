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
import java.util.Objects;

import org.apache.kafka.clients.admin.Admin;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.data.redis.health.DataRedisHealthIndicator;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.kafka.listener.MessageListenerContainer;

import io.micrometer.core.instrument.Gauge;
import io.sawmill.admin.internal.ReplicaShortfallView;
import io.sawmill.admin.internal.SawmillOperations;
import io.sawmill.deadletter.internal.DeadLetterBrake;
import io.sawmill.doctor.internal.Doctor;
import io.sawmill.health.internal.DeadLetterBrakeHealth;
import io.sawmill.health.internal.HealthReport;
import io.sawmill.health.internal.ListenerContainerHealth;
import io.sawmill.health.internal.RedisWritePathHealth;
import io.sawmill.health.internal.TimeBoundedCheck;
import io.sawmill.listener.internal.ListenerConfig;
import io.sawmill.listener.internal.ListenerProgress;
import io.sawmill.listener.internal.RedisCircuit;
import io.sawmill.metrics.internal.CpuThrottlingMetrics;
import io.sawmill.metrics.internal.GroupLagExporter;
import io.sawmill.metrics.internal.PartitionLagMonitor;
import io.sawmill.metrics.internal.RedisRoundTripProbe;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.metrics.internal.SummaryLogger;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.redis.internal.ReplicaShortfalls;

/**
 * Sawmill's diagnosis on top of the data path: the group's broker-side lag on every
 * partition, Redis RTT on the writing path's client, CPU throttling from the cgroup, the
 * periodic summary line, and the health contributors {@code sawmillRedis},
 * {@code sawmillListeners} and {@code sawmillDeadLetterBrake} (when Spring Boot's health
 * module is present), Spring Data Redis' {@code redis} contributor bounded in time, and
 * the {@code sawmill} endpoint's dead-letter brake operations (when Actuator is present).
 * Every bean backs off when the application defines its own.
 */
@AutoConfiguration(after = SawmillAutoConfiguration.class,
		// so that Boot's own redis contributor backs off for the time-bounded one below
		beforeName = {
				"org.springframework.boot.data.redis.autoconfigure.health.DataRedisHealthContributorAutoConfiguration",
				"org.springframework.boot.data.redis.autoconfigure.health.DataRedisReactiveHealthContributorAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "sawmill.enabled", matchIfMissing = true)
@ConditionalOnBean(SawmillMetrics.class)
public final class SawmillObservabilityAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RedisRoundTripProbe sawmillRedisRoundTripProbe(LettuceConnectionFactory connectionFactory, SawmillMetrics metrics,
			PipelineConfig pipeline, SawmillProperties properties) {
		// the same native client, and so the same ClientResources, as the pipelined
		// writer
		return new RedisRoundTripProbe(() -> {
			if (!connectionFactory.isRunning()) {
				connectionFactory.start();
			}
			return connectionFactory.getNativeClient();
		}, metrics.registry(), metrics.group(), properties.getMetrics().getRttInterval(), pipeline.timeout());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "sawmill.metrics.cpu-throttling", matchIfMissing = true)
	CpuThrottlingMetrics sawmillCpuThrottlingMetrics(SawmillMetrics metrics) {
		CpuThrottlingMetrics throttling = new CpuThrottlingMetrics();
		// bound here rather than left to Actuator, so that it also works without it
		throttling.bindTo(metrics.registry());
		return throttling;
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "sawmill.metrics.group-lag", matchIfMissing = true)
	GroupLagExporter sawmillGroupLagExporter(Admin sawmillAdmin, ListenerConfig listener, SawmillMetrics metrics,
			SawmillProperties properties) {
		return new GroupLagExporter(sawmillAdmin, listener.topics(), listener.topicPattern(), metrics.registry(),
				metrics.group(), properties.getMetrics().getLagInterval());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "sawmill.metrics.summary.enabled", matchIfMissing = true)
	SummaryLogger sawmillSummaryLogger(SawmillMetrics metrics, ObjectProvider<PartitionLagMonitor> lag,
			ObjectProvider<RedisRoundTripProbe> rtt, SawmillProperties properties) {
		return new SummaryLogger(metrics, lag.getIfAvailable(), rtt.getIfAvailable(),
				properties.getMetrics().getSummary().getInterval(), Clock.systemUTC());
	}

	@Bean
	@ConditionalOnMissingBean
	ListenerContainerHealth sawmillListenerContainerHealth(ObjectProvider<MessageListenerContainer> containers,
			ObjectProvider<RedisCircuit> circuit, ObjectProvider<DeadLetterBrake> brake,
			ObjectProvider<ListenerProgress> progress, SawmillMetrics metrics) {
		ListenerContainerHealth health = new ListenerContainerHealth(() -> containers.orderedStream().toList(),
				() -> brake.stream()
					.flatMap(b -> b.engaged().stream())
					.map(trip -> "dead-letter brake engaged")
					.findFirst()
					.orElseGet(() -> circuit.stream().map(c -> "redis circuit " + c.state()).findFirst().orElse(null)),
				() -> progress.stream().flatMap(p -> p.stall().stream()).findFirst().orElse(null));
		Gauge.builder("sawmill.listener.paused", health, ListenerContainerHealth::paused)
			.description("Listener containers paused (e.g. while the Redis circuit is open)")
			.tag("group", metrics.group())
			.strongReference(true)
			.register(metrics.registry());
		return health;
	}

	/**
	 * The {@code sawmill} endpoint (the operator's operations, the dead-letter brake, the
	 * doctor's report), when Actuator is on the class path.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static final class SawmillEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		SawmillEndpoint sawmillEndpoint(ObjectProvider<DeadLetterBrake> brake, ObjectProvider<Doctor> doctor,
				ObjectProvider<SawmillOperations> operations, ObjectProvider<ReplicaShortfalls> shortfalls,
				PipelineConfig pipeline) {
			return new SawmillEndpoint(brake.getIfAvailable(), doctor.getIfAvailable(), operations.getIfAvailable(),
					new ReplicaShortfallView(shortfalls.getIfAvailable(ReplicaShortfalls::none), pipeline));
		}

	}

	/**
	 * The health contributors, when Spring Boot's health module is on the class path. (A
	 * nested configuration is processed before the outer beans, so it takes them as
	 * parameters rather than testing for them with {@code @ConditionalOnBean}.)
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthIndicator.class)
	static final class SawmillHealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "sawmillRedisHealthIndicator")
		HealthIndicator sawmillRedisHealthIndicator(RedisRoundTripProbe probe, SawmillProperties properties,
				ObjectProvider<ReplicaShortfalls> shortfalls) {
			RedisWritePathHealth writePath = new RedisWritePathHealth(probe,
					shortfalls.getIfAvailable(ReplicaShortfalls::none));
			TimeBoundedCheck health = new TimeBoundedCheck("sawmillRedis", writePath::check,
					properties.getHealth().getTimeout());
			return () -> toHealth(health.check());
		}

		@Bean
		@ConditionalOnMissingBean(name = "sawmillDeadLetterBrakeHealthIndicator")
		@ConditionalOnBean(DeadLetterBrake.class)
		HealthIndicator sawmillDeadLetterBrakeHealthIndicator(DeadLetterBrake brake) {
			DeadLetterBrakeHealth health = new DeadLetterBrakeHealth(brake);
			return () -> toHealth(health.check());
		}

		@Bean
		@ConditionalOnMissingBean(name = "sawmillListenersHealthIndicator")
		HealthIndicator sawmillListenersHealthIndicator(ListenerContainerHealth health) {
			return () -> toHealth(health.check());
		}

		/**
		 * Spring Data Redis' {@code redis} contributor, bounded by
		 * {@code sawmill.health.timeout}. Boot's own waits for the shared connection's
		 * command timeout (60 s) once an established connection stops answering, longer
		 * than any probe waits; this one answers DOWN with the reason instead. It is
		 * named as Boot's, so Boot's backs off, and keeps the name {@code redis}.
		 */
		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(name = "org.springframework.boot.data.redis.health.DataRedisHealthIndicator",
				value = HealthIndicator.class)
		@ConditionalOnBean(RedisConnectionFactory.class)
		@ConditionalOnEnabledHealthIndicator("redis")
		static final class BoundedRedisHealthConfiguration {

			@Bean
			@ConditionalOnMissingBean(name = { "redisHealthIndicator", "redisHealthContributor" })
			HealthIndicator redisHealthContributor(RedisConnectionFactory connectionFactory,
					SawmillProperties properties) {
				HealthIndicator redis = new DataRedisHealthIndicator(connectionFactory);
				TimeBoundedCheck health = new TimeBoundedCheck("redis",
						() -> toReport(
								Objects.requireNonNull(redis.health(true), "a health indicator reports a health")),
						properties.getHealth().getTimeout());
				return () -> toHealth(health.check());
			}

			private static HealthReport toReport(Health health) {
				return new HealthReport(Status.UP.equals(health.getStatus()), health.getDetails());
			}

		}

		private static Health toHealth(HealthReport report) {
			return (report.up() ? Health.up() : Health.down()).withDetails(report.details()).build();
		}

	}

}
