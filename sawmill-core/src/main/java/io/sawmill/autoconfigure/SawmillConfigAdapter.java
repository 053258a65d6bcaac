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

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.jspecify.annotations.Nullable;

import io.sawmill.deadletter.internal.DeadLetterBrakeConfig;
import io.sawmill.deadletter.internal.DeadLetterConfig;
import io.sawmill.doctor.internal.DoctorConfig;
import io.sawmill.listener.ConsumptionMode;
import io.sawmill.listener.internal.ListenerConfig;
import io.sawmill.listener.internal.RedisCircuit;
import io.sawmill.listener.internal.ShareConfig;
import io.sawmill.redis.internal.PipelineConfig;

/**
 * Where {@code sawmill.*} properties become Sawmill's immutable configs: the listener
 * (with the topics the routes read), share group, pipeline, dead letters (with each
 * route's dead-letter topic), circuit breaker and doctor here, the mapping and the
 * routes' mapper configs in {@link MappingConfigAdapter}. A bad value fails start-up with
 * the property to change and what was wrong with it; a risky one is logged as a warning
 * that says what to do.
 */
final class SawmillConfigAdapter {

	private SawmillConfigAdapter() {
	}

	static ListenerConfig listener(SawmillProperties p) {
		return listener(p, null);
	}

	/**
	 * @param kafkaGroupId {@code spring.kafka.consumer.group-id}: the group when
	 * {@code sawmill.group-id} is unset
	 * @throws SawmillConfigurationException when both are set to different groups
	 */
	static ListenerConfig listener(SawmillProperties p, @Nullable String kafkaGroupId) {
		String group = groupId(p.getGroupId(), kafkaGroupId);
		return bind(
				"sawmill.topics / group-id / concurrency / batch-size / retry.* / redelivery.* / shutdown-timeout / coalesce-writes / delivery / offset-reset",
				() -> ListenerConfig.custom()
					.topics(p.getRoutes().isEmpty() ? p.getTopics() : routeTopics(p))
					.topicPattern(routeSubscription(p))
					.groupId(group)
					.concurrency(p.getConcurrency())
					.batchSize(p.getBatchSize())
					.retryMaxAttempts(p.getRetry().getMaxAttempts())
					.retryBackoff(p.getRetry().getInitialBackoff(), p.getRetry().getMaxBackoff())
					.shutdownTimeout(p.getShutdownTimeout())
					.redeliveryBackoff(p.getRedelivery().getInitialBackoff(), p.getRedelivery().getMaxBackoff())
					.stallTimeout(p.getRedelivery().getStallTimeout())
					.maxRecordBytes((int) Math.min(Integer.MAX_VALUE, p.getMaxRecordSize().toBytes()))
					.coalesceWrites(p.isCoalesceWrites())
					.delivery(p.getDelivery())
					.offsetReset(p.getOffsetReset())
					.build());
	}

	/**
	 * The share group's threads from the service's settings: its topics, batch size,
	 * concurrency (threads in this process), max record size, redelivery backoff (the
	 * wait after a round trip that released records) and shutdown timeout; the share
	 * group id is {@code sawmill.consumption.share-group-id}, else the service's group
	 * id.
	 */
	static ShareConfig share(SawmillProperties p, ListenerConfig listener) {
		String shareGroupId = p.getConsumption().getShareGroupId();
		return bind("sawmill.consumption.* / topics / concurrency / batch-size / redelivery.*",
				() -> ShareConfig.custom(shareGroupId != null ? shareGroupId : listener.groupId(), listener.topics())
					.threads(listener.concurrency())
					.batchSize(listener.batchSize())
					.maxRecordBytes(listener.maxRecordBytes())
					.deliveryLimit(p.getConsumption().getDeliveryLimit())
					.backoff(listener.redeliveryInitialBackoff(), listener.redeliveryMaxBackoff())
					.shutdownTimeout(listener.shutdownTimeout())
					.build());
	}

	static PipelineConfig pipeline(SawmillProperties p) {
		return pipeline(p, false);
	}

	/**
	 * @param sentinel whether Redis is Sentinel-managed: then, unless
	 * {@code wait-for-replicas} is set, each batch waits for one replica, since a
	 * master's acknowledgement alone does not survive the failovers Sentinel exists for
	 * (docs/reliability.md)
	 */
	static PipelineConfig pipeline(SawmillProperties p, boolean sentinel) {
		Integer waitForReplicas = p.getPipeline().getWaitForReplicas();
		return bind("sawmill.pipeline.*", () -> PipelineConfig.custom()
			.maxCommandsPerChunk(p.getPipeline().getMaxCommandsPerChunk())
			.timeout(p.getPipeline().getTimeout())
			.waitForReplicas(
					waitForReplicas != null ? waitForReplicas : sentinel ? 1 : PipelineConfig.DEFAULT_WAIT_FOR_REPLICAS)
			.replicaTimeout(p.getPipeline().getReplicaTimeout())
			.replicaShortfall(p.getPipeline().getReplicaShortfall())
			.replicaShortfallGrace(p.getPipeline().getReplicaShortfallGrace())
			.build());
	}

	static DeadLetterConfig deadLetter(SawmillProperties p) {
		return bind("sawmill.dead-letter.*",
				() -> DeadLetterConfig.custom()
					.topicSuffix(p.getDeadLetter().getTopicSuffix())
					.sendTimeout(p.getDeadLetter().getSendTimeout())
					.maxAttempts(p.getDeadLetter().getMaxAttempts())
					.topics(routeDeadLetterTopics(p))
					.topicPatterns(routeDeadLetterPatterns(p))
					.build());
	}

	static DeadLetterBrakeConfig deadLetterBrake(SawmillProperties p) {
		SawmillProperties.DeadLetter.Brake brake = p.getDeadLetter().getBrake();
		return bind("sawmill.dead-letter.brake.*",
				() -> DeadLetterBrakeConfig.custom()
					.window(brake.getWindow())
					.maxRatio(brake.getMaxRatio())
					.maxPerMinute(brake.getMaxPerMinute())
					.releaseAfter(brake.getReleaseAfter())
					.build());
	}

	/**
	 * The consumer group: {@code sawmill.group-id}, else
	 * {@code spring.kafka.consumer.group-id}, else {@code sawmill}; never one silently
	 * replacing the other.
	 */
	static String groupId(@Nullable String sawmill, @Nullable String kafka) {
		if (sawmill != null && kafka != null && !sawmill.equals(kafka)) {
			throw new SawmillConfigurationException("sawmill.group-id (" + sawmill
					+ ") and spring.kafka.consumer.group-id (" + kafka + ") name different consumer groups",
					"Set one of them, or both to the same group.");
		}
		return sawmill != null ? sawmill : kafka != null ? kafka : ListenerConfig.DEFAULT_GROUP_ID;
	}

	static RedisCircuit circuit(SawmillProperties p, String group) {
		SawmillProperties.CircuitBreaker c = p.getCircuitBreaker();
		String name = "sawmill-redis-" + group;
		if (!c.isEnabled()) {
			return RedisCircuit.disabled(name);
		}
		return bind("sawmill.circuit-breaker.*", () -> RedisCircuit.of(name, c.getFailureRateThreshold(),
				c.getSlowCallDuration(), c.getSlowCallRateThreshold(), c.getSlidingWindow(), c.getOpenWait()));
	}

	/**
	 * @param clientRack the consumer's {@code client.rack}, or null
	 * @param mode how the topics are read: a share group's consumers share partitions
	 */
	static DoctorConfig doctor(SawmillProperties.Doctor d, ListenerConfig listener, PipelineConfig pipeline,
			@Nullable String clientRack, ConsumptionMode mode) {
		return bind("sawmill.doctor.*",
				() -> DoctorConfig.custom()
					.hostRoot(Path.of(d.getHostRoot()))
					.zone(d.getZone())
					.redisZone(d.getRedisZone())
					.redisZonePattern(d.getRedisZonePattern())
					.replicas(d.getReplicas())
					.topics(listener.topics())
					.topicPattern(listener.topicPattern())
					.concurrency(listener.concurrency())
					.sharedPartitions(mode == ConsumptionMode.SHARE)
					.waitForReplicas(pipeline.waitForReplicas())
					.replicaShortfall(pipeline)
					.clientRack(clientRack)
					.pings(d.getPings())
					.timeout(d.getTimeout())
					.build());
	}

	private static List<String> routeTopics(SawmillProperties p) {
		List<String> topics = new ArrayList<>();
		p.getRoutes().forEach(route -> topics.addAll(route.getTopics()));
		return topics;
	}

	/**
	 * The pattern one consumer subscribes with when a route has topic-pattern (see
	 * {@link Routes#subscription()}), else null.
	 */
	private static @Nullable Pattern routeSubscription(SawmillProperties p) {
		if (p.getRoutes()
			.stream()
			.allMatch(route -> route.getTopicPattern() == null || route.getTopicPattern().isBlank())) {
			return null;
		}
		return Pattern.compile(p.getRoutes()
			.stream()
			.flatMap(route -> route.getTopicPattern() != null && !route.getTopicPattern().isBlank()
					? Stream.of(route.getTopicPattern()) : route.getTopics().stream().map(Pattern::quote))
			.map(regex -> "(?:" + regex + ")")
			.collect(Collectors.joining("|")));
	}

	/**
	 * The dead-letter topic of the topics each pattern route matches: the route's
	 * dead-letter-topic, which a pattern route must name while dead letters are on (the
	 * topics it will read may not exist yet, so their {@code <topic><suffix>} could not
	 * be created at start-up).
	 */
	static Map<Pattern, String> routeDeadLetterPatterns(SawmillProperties p) {
		Map<Pattern, String> topics = new LinkedHashMap<>();
		for (int i = 0; i < p.getRoutes().size(); i++) {
			SawmillProperties.Route route = p.getRoutes().get(i);
			if (route.getTopicPattern() == null || route.getTopicPattern().isBlank() || !route.getTopics().isEmpty()) {
				continue;
			}
			if (route.getDeadLetterTopic() == null || route.getDeadLetterTopic().isBlank()) {
				if (p.getDeadLetter().isEnabled()) {
					throw new SawmillConfigurationException(
							"sawmill.routes[" + i + "] has topic-pattern '" + route.getTopicPattern()
									+ "' but no dead-letter-topic",
							"Set sawmill.routes[" + i
									+ "].dead-letter-topic (created at start-up), or turn dead letters off.");
				}
				continue;
			}
			topics.put(Pattern.compile(route.getTopicPattern()), route.getDeadLetterTopic());
		}
		if (p.getDeadLetter().isEnabled()) {
			Map<String, String> named = routeDeadLetterTopics(p);
			List<String> deadLetterTopics = new ArrayList<>(topics.values());
			routeTopics(p).forEach(topic -> deadLetterTopics
				.add(named.getOrDefault(topic, topic + p.getDeadLetter().getTopicSuffix())));
			for (String deadLetterTopic : deadLetterTopics) {
				topics.keySet()
					.stream()
					.filter(pattern -> pattern.matcher(deadLetterTopic).matches())
					.findFirst()
					.ifPresent(pattern -> {
						throw new SawmillConfigurationException(
								"Dead-letter topic '" + deadLetterTopic + "' matches topic-pattern '" + pattern
										+ "' of sawmill.routes",
								"Narrow the pattern or rename the dead-letter topic "
										+ "(sawmill.routes[n].dead-letter-topic, sawmill.dead-letter.topic-suffix): Sawmill would read its own dead letters.");
					});
			}
		}
		return topics;
	}

	/** The dead-letter topic of each source topic whose route names one. */
	static Map<String, String> routeDeadLetterTopics(SawmillProperties p) {
		Map<String, String> topics = new LinkedHashMap<>();
		for (SawmillProperties.Route route : p.getRoutes()) {
			if (route.getDeadLetterTopic() != null && !route.getDeadLetterTopic().isBlank()) {
				route.getTopics().forEach(topic -> topics.put(topic, route.getDeadLetterTopic()));
			}
		}
		return topics;
	}

	/**
	 * Static membership: {@code sawmill.instance-id} as the listener consumers'
	 * {@code group.instance.id}, refused beside a different one set through Spring
	 * Kafka's consumer properties.
	 */
	static void instanceId(SawmillProperties p, Map<String, Object> consumer) {
		String id = p.getInstanceId();
		if (id == null) {
			return;
		}
		if (id.isBlank()) {
			throw new SawmillConfigurationException("sawmill.instance-id is blank",
					"Set it to a name that survives a restart of this instance (e.g. a StatefulSet pod's name), "
							+ "or remove it for dynamic membership.");
		}
		Object set = consumer.get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
		if (set != null && !set.toString().equals(id)) {
			throw new SawmillConfigurationException("sawmill.instance-id (" + id
					+ ") and spring.kafka.consumer.properties[group.instance.id] (" + set + ") differ",
					"Set one of them.");
		}
		consumer.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, id);
	}

	/**
	 * The longest one poll's batch can spend in the listener (every attempt timing out,
	 * every backoff at its maximum) must stay below {@code max.poll.interval.ms}, or
	 * Kafka would evict the consumer and rebalance while Redis is slow.
	 */
	static void checkPollInterval(ListenerConfig listener, PipelineConfig pipeline, Map<String, Object> consumer) {
		Object configured = consumer.getOrDefault(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 300_000);
		Duration pollInterval = Duration.ofMillis(Long.parseLong(configured.toString()));
		Duration worst = pipeline.timeout()
			.multipliedBy(listener.retryMaxAttempts())
			.plus(listener.retryMaxBackoff().multipliedBy(listener.retryMaxAttempts() - 1L));
		if (worst.compareTo(pollInterval) >= 0) {
			throw new SawmillConfigurationException(
					"A batch may spend up to " + worst
							+ " in Redis (sawmill.pipeline.timeout × sawmill.retry.max-attempts"
							+ " + backoffs) but max.poll.interval.ms is " + pollInterval,
					"Lower sawmill.pipeline.timeout or sawmill.retry.max-attempts, or raise "
							+ "spring.kafka.consumer.properties[max.poll.interval.ms] above " + worst.toMillis() + ".");
		}
	}

	/**
	 * Builds a config, turning the {@link IllegalArgumentException} its validation throws
	 * into a start-up failure that names {@code properties}.
	 */
	static <T> T bind(String properties, Supplier<T> build) {
		try {
			return build.get();
		}
		catch (IllegalArgumentException ex) {
			throw new SawmillConfigurationException("Invalid " + properties + ": " + ex.getMessage(),
					"Fix the value named above in your sawmill.* configuration.");
		}
	}

}
