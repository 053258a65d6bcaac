package io.sawmill.autoconfigure;

import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.kafka.clients.consumer.ConsumerConfig;

import io.sawmill.deadletter.DeadLetterConfig;
import io.sawmill.listener.ListenerConfig;
import io.sawmill.listener.RedisCircuit;
import io.sawmill.mapping.json.JsonHashMapperConfig;
import io.sawmill.redis.PipelineConfig;

/**
 * The one place where {@code sawmill.*} properties become Sawmill's immutable configs. A bad value
 * fails start-up with the property to change and what was wrong with it.
 */
final class SawmillConfigAdapter {

	private SawmillConfigAdapter() {
	}

	static ListenerConfig listener(SawmillProperties p) {
		return bind("sawmill.topics / group-id / concurrency / batch-size / retry.* / shutdown-timeout",
				() -> ListenerConfig.custom()
					.topics(p.getTopics())
					.groupId(p.getGroupId())
					.concurrency(p.getConcurrency())
					.batchSize(p.getBatchSize())
					.retryMaxAttempts(p.getRetry().getMaxAttempts())
					.retryBackoff(p.getRetry().getInitialBackoff(), p.getRetry().getMaxBackoff())
					.shutdownTimeout(p.getShutdownTimeout())
					.maxRecordBytes((int) Math.min(Integer.MAX_VALUE, p.getMaxRecordSize().toBytes()))
					.build());
	}

	static PipelineConfig pipeline(SawmillProperties p) {
		return pipeline(p, false);
	}

	/**
	 * @param sentinel whether Redis is Sentinel-managed: then, unless {@code wait-for-replicas} is
	 *     set, each batch waits for one replica, since a master's acknowledgement alone does not
	 *     survive the failovers Sentinel exists for (docs/reliability.md)
	 */
	static PipelineConfig pipeline(SawmillProperties p, boolean sentinel) {
		Integer waitForReplicas = p.getPipeline().getWaitForReplicas();
		return bind("sawmill.pipeline.*", () -> PipelineConfig.custom()
			.maxCommandsPerChunk(p.getPipeline().getMaxCommandsPerChunk())
			.timeout(p.getPipeline().getTimeout())
			.waitForReplicas(waitForReplicas != null ? waitForReplicas : sentinel ? 1 : PipelineConfig.DEFAULT_WAIT_FOR_REPLICAS)
			.replicaTimeout(p.getPipeline().getReplicaTimeout())
			.build());
	}

	static DeadLetterConfig deadLetter(SawmillProperties p) {
		return bind("sawmill.dead-letter.*", () -> DeadLetterConfig.custom()
			.topicSuffix(p.getDeadLetter().getTopicSuffix())
			.sendTimeout(p.getDeadLetter().getSendTimeout())
			.maxAttempts(p.getDeadLetter().getMaxAttempts())
			.build());
	}

	static RedisCircuit circuit(SawmillProperties p) {
		SawmillCircuitBreakerProperties c = p.getCircuitBreaker();
		String name = "sawmill-redis-" + p.getGroupId();
		if (!c.isEnabled()) {
			return RedisCircuit.disabled(name);
		}
		return bind("sawmill.circuit-breaker.*", () -> RedisCircuit.of(name, c.getFailureRateThreshold(),
				c.getSlowCallDuration(), c.getSlowCallRateThreshold(), c.getSlidingWindow(), c.getOpenWait()));
	}

	static JsonHashMapperConfig mapping(SawmillProperties p) {
		if (p.getMapping().getKeyTemplate() == null) {
			throw new SawmillConfigurationException("sawmill.mapping.key-template is not set",
					"Set sawmill.mapping.key-template (e.g. 'user:{userId}', or '{@key}' for the Kafka key), "
							+ "or define a RecordMapper bean.");
		}
		return bind("sawmill.mapping.*", () -> JsonHashMapperConfig.custom()
			.keyTemplate(p.getMapping().getKeyTemplate())
			.fields(p.getMapping().getFields())
			.ttl(p.getMapping().getTtl())
			.build());
	}

	/**
	 * The longest one poll's batch can spend in the listener (every attempt timing out, every
	 * backoff at its maximum) must stay below {@code max.poll.interval.ms}, or Kafka would evict
	 * the consumer and rebalance while Redis is slow.
	 */
	static void checkPollInterval(ListenerConfig listener, PipelineConfig pipeline, Map<String, Object> consumer) {
		Object configured = consumer.getOrDefault(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 300_000);
		Duration pollInterval = Duration.ofMillis(Long.parseLong(configured.toString()));
		Duration worst = pipeline.timeout().multipliedBy(listener.retryMaxAttempts())
			.plus(listener.retryMaxBackoff().multipliedBy(listener.retryMaxAttempts() - 1L));
		if (worst.compareTo(pollInterval) >= 0) {
			throw new SawmillConfigurationException(
					"A batch may spend up to " + worst + " in Redis (sawmill.pipeline.timeout × sawmill.retry.max-attempts"
							+ " + backoffs) but max.poll.interval.ms is " + pollInterval,
					"Lower sawmill.pipeline.timeout or sawmill.retry.max-attempts, or raise "
							+ "spring.kafka.consumer.properties[max.poll.interval.ms] above " + worst.toMillis() + ".");
		}
	}

	private static <T> T bind(String properties, Supplier<T> build) {
		try {
			return build.get();
		}
		catch (IllegalArgumentException ex) {
			throw new SawmillConfigurationException("Invalid " + properties + ": " + ex.getMessage(),
					"Fix the value named above in your sawmill.* configuration.");
		}
	}
}
