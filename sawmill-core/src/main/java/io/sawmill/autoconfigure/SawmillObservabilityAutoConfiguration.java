package io.sawmill.autoconfigure;

import java.time.Clock;
import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.kafka.listener.MessageListenerContainer;

import io.micrometer.core.instrument.Gauge;
import io.sawmill.health.HealthReport;
import io.sawmill.health.ListenerContainerHealth;
import io.sawmill.health.RedisWritePathHealth;
import io.sawmill.listener.RedisCircuit;
import io.sawmill.metrics.CpuThrottlingMetrics;
import io.sawmill.metrics.PartitionLagMonitor;
import io.sawmill.metrics.RedisRoundTripProbe;
import io.sawmill.metrics.SawmillMetrics;
import io.sawmill.metrics.SummaryLogger;
import io.sawmill.redis.PipelineConfig;

/**
 * Sawmill's diagnosis on top of the data path: Redis RTT on the writing path's client, CPU
 * throttling from the cgroup, the periodic summary line, and the health contributors
 * {@code sawmillRedis} and {@code sawmillListeners} (when Spring Boot's health module is present).
 * Every bean backs off when the application defines its own.
 */
@AutoConfiguration(after = SawmillAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "sawmill.enabled", matchIfMissing = true)
@ConditionalOnBean(SawmillMetrics.class)
public final class SawmillObservabilityAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RedisRoundTripProbe sawmillRedisRoundTripProbe(LettuceConnectionFactory connectionFactory, SawmillMetrics metrics,
			PipelineConfig pipeline, SawmillProperties properties) {
		// the same native client, and so the same ClientResources, as the pipelined writer
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
	@ConditionalOnBooleanProperty(name = "sawmill.metrics.summary.enabled", matchIfMissing = true)
	SummaryLogger sawmillSummaryLogger(SawmillMetrics metrics, ObjectProvider<PartitionLagMonitor> lag,
			ObjectProvider<RedisRoundTripProbe> rtt, SawmillProperties properties) {
		return new SummaryLogger(metrics, lag.getIfAvailable(), rtt.getIfAvailable(),
				properties.getMetrics().getSummary().getInterval(), Clock.systemUTC());
	}

	@Bean
	@ConditionalOnMissingBean
	ListenerContainerHealth sawmillListenerContainerHealth(ObjectProvider<MessageListenerContainer> containers,
			ObjectProvider<RedisCircuit> circuit, SawmillMetrics metrics) {
		ListenerContainerHealth health = new ListenerContainerHealth(() -> containers.orderedStream().toList(),
				() -> circuit.stream().map(c -> "redis circuit " + c.state()).findFirst().orElse(null));
		Gauge.builder("sawmill.listener.paused", health, ListenerContainerHealth::paused)
			.description("Listener containers paused (e.g. while the Redis circuit is open)")
			.tag("group", metrics.group())
			.strongReference(true)
			.register(metrics.registry());
		return health;
	}

	/**
	 * The health contributors, when Spring Boot's health module is on the class path. (A nested
	 * configuration is processed before the outer beans, so it takes them as parameters rather than
	 * testing for them with {@code @ConditionalOnBean}.)
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthIndicator.class)
	static final class SawmillHealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "sawmillRedisHealthIndicator")
		HealthIndicator sawmillRedisHealthIndicator(RedisRoundTripProbe probe) {
			RedisWritePathHealth health = new RedisWritePathHealth(probe);
			return () -> toHealth(health.check());
		}

		@Bean
		@ConditionalOnMissingBean(name = "sawmillListenersHealthIndicator")
		HealthIndicator sawmillListenersHealthIndicator(ListenerContainerHealth health) {
			return () -> toHealth(health.check());
		}

		private static Health toHealth(HealthReport report) {
			return (report.up() ? Health.up() : Health.down()).withDetails(report.details()).build();
		}
	}
}
