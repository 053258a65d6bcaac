package io.sawmill.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.health.ListenerContainerHealth;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * A listener whose every batch fails (Redis down, the circuit breaker off so that nothing but the
 * redelivery backoff slows the re-polls) polls its batch again only after a growing backoff,
 * reports the stall in health and in its gauges, and commits everything once Redis is back.
 */
class StalledListenerIT {

	private static final String TOPIC = "stalled";
	private static final int PARTITIONS = 3;

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
		try (ConfigurableApplicationContext app = SawmillApp.run(properties);
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			ListenerContainerHealth health = app.getBean(ListenerContainerHealth.class);
			Kafka.produce(servers.kafka().bootstrapServers(), TOPIC, 0, 300, SampleEvents::userId, SampleEvents::json);
			Map<TopicPartition, Long> before = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
			await().atMost(Duration.ofMinutes(1)).until(() -> Kafka.committedOffsets(admin, "stalled").equals(before));

			servers.redis().kill();
			Kafka.produce(servers.kafka().bootstrapServers(), TOPIC, 300, 600, SampleEvents::userId, SampleEvents::json);
			await().atMost(Duration.ofMinutes(2)).until(() -> health.check().details().containsKey("stalled"));
			assertThat(health.check().up()).as("health while no batch can be committed").isFalse();
			assertThat(gauge(registry, "sawmill.listener.stalled")).isEqualTo(1);

			// with the backoff capped at 2 s, a 10 s window holds a handful of re-polls per batch; without
			// any backoff a failing batch is polled again thousands of times in it
			double before10s = redelivered(registry);
			Thread.sleep(10_000);
			double inWindow = redelivered(registry) - before10s;
			assertThat(inWindow).as("batches polled again in 10 s").isPositive().isLessThanOrEqualTo(30);
			assertThat(gauge(registry, "sawmill.listener.consecutive.failures")).isGreaterThanOrEqualTo(3);
			assertThat(Kafka.committedOffsets(admin, "stalled")).as("nothing committed while Redis is down")
				.isEqualTo(before);

			servers.redis().start();
			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
			await().atMost(Duration.ofMinutes(1)).until(() -> Kafka.committedOffsets(admin, "stalled").equals(end));
			await().atMost(Duration.ofSeconds(30)).until(() -> health.check().up());
			assertThat(gauge(registry, "sawmill.listener.stalled")).isZero();
			assertThat(gauge(registry, "sawmill.listener.consecutive.failures")).isZero();
			// the restarted redis-server keeps nothing from before the kill: check the records produced during it
			RedisVerifier.Result result = RedisVerifier.verify(servers.redis().host(), servers.redis().port(), 300,
					id -> SampleEvents.key(id + 300), id -> SampleEvents.hash(id + 300), Duration.ofHours(1));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
		}
	}

	private static double redelivered(MeterRegistry registry) {
		return registry.get("sawmill.batch.redelivered").counter().count();
	}

	private static double gauge(MeterRegistry registry, String name) {
		return registry.get(name).gauge().value();
	}
}
