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

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sawmill.deadletter.internal.DeadLetterConfig;
import io.sawmill.deadletter.internal.KafkaDeadLetterPublisher;

/**
 * The dead-letter topics of the source topics ({@code <topic><suffix>}, or the one a
 * route names), and how large a dead letter may be. A missing one is created (when
 * {@code create} is on) with the source topic's partition count and the source topic's
 * {@code max.message.bytes} plus {@link #HEADER_HEADROOM} for the dead-letter headers, so
 * that any record the source topic holds fits in it whole. The dead-letter producer's
 * {@code max.request.size} is {@link #maxRequestSize()}: large enough for the largest
 * source record plus headers; a dead-letter topic that is smaller (one created by someone
 * else) refuses such a dead letter, and the publisher then publishes it without its
 * value.
 * <p>
 * {@link #ensure} is called once, by the start-up check, before the listener containers
 * start. A client that may not read topic configurations still starts (with a WARN): the
 * topics are then created with the broker's default and the producer keeps Kafka's
 * default {@code max.request.size}.
 */
final class DeadLetterTopics {

	/**
	 * Room for the dead-letter headers (coordinates, reason, exception message) on top of
	 * the original record.
	 */
	static final int HEADER_HEADROOM = 64 * 1024;

	/**
	 * Kafka's default {@code max.message.bytes}, assumed when a topic's cannot be read.
	 */
	static final int KAFKA_DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;

	/**
	 * How much longer than its own timeout a call to Kafka is waited for, before giving
	 * up on it.
	 */
	private static final Duration CALL_TIMEOUT_MARGIN = Duration.ofSeconds(1);

	private static final Logger log = LoggerFactory.getLogger(DeadLetterTopics.class);

	private final Admin admin;

	/**
	 * The named source topics, then (once {@link #ensure} ran) the existing topics a
	 * route's pattern matches.
	 */
	private List<String> sources;

	private final boolean enabled;

	private final boolean create;

	private final Duration timeout;

	private final Map<Pattern, String> byPattern;

	private final DeadLetterConfig names;

	private volatile int maxRequestSize;

	DeadLetterTopics(Admin admin, List<String> sources, boolean enabled, String suffix, boolean create,
			Duration timeout) {
		this(admin, sources, enabled, suffix, create, timeout, Map.of());
	}

	/**
	 * @param named the dead-letter topic of each source topic whose route names its own;
	 * several sources can share one
	 */
	DeadLetterTopics(Admin admin, List<String> sources, boolean enabled, String suffix, boolean create,
			Duration timeout, Map<String, String> named) {
		this(admin, sources, enabled, suffix, create, timeout, named, Map.of());
	}

	/**
	 * @param byPattern the dead-letter topic of the topics each route's pattern matches
	 * (a pattern route names its own, so that it exists before a topic the pattern
	 * matches appears)
	 */
	DeadLetterTopics(Admin admin, List<String> sources, boolean enabled, String suffix, boolean create,
			Duration timeout, Map<String, String> named, Map<Pattern, String> byPattern) {
		this.byPattern = new LinkedHashMap<>(byPattern);
		this.names = DeadLetterConfig.custom().topicSuffix(suffix).topics(named).topicPatterns(byPattern).build();
		this.admin = admin;
		this.sources = List.copyOf(sources);
		this.enabled = enabled;
		this.create = create;
		this.timeout = timeout;
	}

	boolean enabled() {
		return enabled;
	}

	/**
	 * The dead-letter topic of a source topic: the one its route names, else that of the
	 * first pattern matching it, else {@code <topic><suffix>}.
	 */
	String topicFor(String source) {
		return names.topicFor(source);
	}

	/**
	 * Creates the missing dead-letter topics and sizes the producer.
	 * @param existing the topics Kafka has
	 * @param kafkaServers for the message when it fails
	 * @throws SawmillConfigurationException when a topic is missing and may not be
	 * created, or cannot be created
	 */
	void ensure(Set<String> existing, String kafkaServers) {
		if (!enabled) {
			return;
		}
		Set<String> deadLetterTopics = new java.util.HashSet<>(byPattern.values());
		List<String> matched = existing.stream()
			.sorted()
			.filter(topic -> !sources.contains(topic) && !deadLetterTopics.contains(topic))
			.filter(topic -> byPattern.keySet().stream().anyMatch(p -> p.matcher(topic).matches()))
			.toList();
		sources = java.util.stream.Stream.concat(sources.stream(), matched.stream()).toList();
		List<String> unmatched = byPattern.values()
			.stream()
			.distinct()
			.filter(topic -> !existing.contains(topic) && sources.stream().noneMatch(s -> topicFor(s).equals(topic)))
			.toList();
		List<String> sourcesWithout = sources.stream().filter(topic -> !existing.contains(topicFor(topic))).toList();
		List<String> missing = java.util.stream.Stream
			.concat(sourcesWithout.stream().map(this::topicFor),
					create ? java.util.stream.Stream.empty() : unmatched.stream())
			.distinct()
			.toList();
		if (!missing.isEmpty() && !create) {
			throw new SawmillConfigurationException(
					"Dead-letter topic(s) " + missing + " do not exist on Kafka at " + kafkaServers,
					"Create them, set sawmill.dead-letter.create-topics=true, or turn dead letters off "
							+ "with sawmill.dead-letter.enabled=false.");
		}
		try {
			if (!unmatched.isEmpty()) {
				// no source topic to size them from yet: the broker's default partitions
				// and message size
				createTopics(unmatched.stream()
					.map(topic -> new NewTopic(topic, Optional.empty(), Optional.empty()))
					.toList(), unmatched);
			}
			Map<String, Integer> sourceBytes = maxMessageBytes(sources);
			if (!missing.isEmpty()) {
				Map<String, TopicDescription> described = admin.describeTopics(sourcesWithout)
					.allTopicNames()
					.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
				// sources sharing a route's dead-letter topic: created once, with the
				// most partitions and bytes of them
				Map<String, Integer> partitions = new LinkedHashMap<>();
				Map<String, Integer> bytes = new HashMap<>();
				for (String topic : sourcesWithout) {
					partitions.merge(topicFor(topic),
							Objects.requireNonNull(described.get(topic), "described as asked").partitions().size(),
							Math::max);
					Integer sourceMax = sourceBytes.get(topic);
					if (sourceMax != null) {
						bytes.merge(topicFor(topic), sourceMax, Math::max);
					}
				}
				List<NewTopic> newTopics = partitions.entrySet().stream().map(topic -> {
					NewTopic newTopic = new NewTopic(topic.getKey(), Optional.of(topic.getValue()), Optional.empty());
					Integer max = bytes.get(topic.getKey());
					return max == null ? newTopic : newTopic
						.configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(withHeadroom(max))));
				}).toList();
				createTopics(newTopics, missing);
			}
			if (!sourceBytes.isEmpty()) {
				warnOfSmallerDeadLetterTopics(sourceBytes);
				maxRequestSize = sourceBytes.values().stream().mapToInt(DeadLetterTopics::withHeadroom).max().orElse(0);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (ExecutionException ex) {
			throw new SawmillConfigurationException(
					"Could not describe topic(s) " + sourcesWithout + ": " + ex.getCause(),
					"Grant this client DESCRIBE on the topics, or check spring.kafka.security.*.", ex);
		}
		catch (TimeoutException ex) {
			throw new SawmillConfigurationException("Reading the configuration of the dead-letter topics timed out",
					"Check Kafka, or raise sawmill.startup-timeout.", ex);
		}
	}

	private void warnOfSmallerDeadLetterTopics(Map<String, Integer> sourceBytes)
			throws InterruptedException, TimeoutException {
		Map<String, Integer> deadLetterBytes = maxMessageBytes(
				sources.stream().map(this::topicFor).distinct().toList());
		sources.forEach(sourceTopic -> {
			String topic = topicFor(sourceTopic);
			Integer bytes = deadLetterBytes.get(topic);
			Integer source = sourceBytes.get(sourceTopic);
			if (bytes == null) {
				return;
			}
			if (source != null && bytes < withHeadroom(source)) {
				log.warn("Dead-letter topic {} takes records of up to {} bytes, its source topic's up to {}: a larger "
						+ "dead letter is published without its value (header {}). Raise its max.message.bytes to {}.",
						topic, bytes, source, KafkaDeadLetterPublisher.VALUE_DROPPED_HEADER, withHeadroom(source));
			}
		});
	}

	private void createTopics(List<NewTopic> newTopics, List<String> missing)
			throws InterruptedException, TimeoutException {
		try {
			admin.createTopics(newTopics).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			log.info("Created dead-letter topic(s) {}",
					newTopics.stream()
						.map(topic -> topic.name() + " (max.message.bytes="
								+ (topic.configs() == null ? "broker default"
										: topic.configs().get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG))
								+ ")")
						.toList());
		}
		catch (ExecutionException ex) {
			if (!(ex.getCause() instanceof TopicExistsException)) {
				throw new SawmillConfigurationException(
						"Could not create dead-letter topic(s) " + missing + ": " + ex.getCause(),
						"Create them yourself, or grant this client CREATE on the cluster.", ex);
			}
		}
		catch (TimeoutException ex) {
			throw new SawmillConfigurationException("Creating dead-letter topic(s) " + missing + " timed out",
					"Create them yourself, or raise sawmill.startup-timeout.", ex);
		}
	}

	/**
	 * The dead-letter producer's {@code max.request.size}: the largest source topic's
	 * {@code max.message.bytes} plus {@link #HEADER_HEADROOM}, as found by
	 * {@link #ensure}; 0 (Kafka's default) before it ran.
	 */
	int maxRequestSize() {
		return maxRequestSize;
	}

	/**
	 * The topics' {@code max.message.bytes}; empty, with a WARN, when they cannot be read
	 * (e.g. the client may not DESCRIBE_CONFIGS): dead letters then still always fit,
	 * published without their value when they are too large.
	 */
	private Map<String, Integer> maxMessageBytes(Collection<String> topics)
			throws InterruptedException, TimeoutException {
		List<ConfigResource> resources = topics.stream()
			.map(topic -> new ConfigResource(ConfigResource.Type.TOPIC, topic))
			.toList();
		Map<ConfigResource, Config> configs;
		try {
			// the call's own timeout, so that nothing is left pending in the Admin client
			// when it gives up
			configs = admin.describeConfigs(resources, new DescribeConfigsOptions().timeoutMs(timeoutMillis()))
				.all()
				.get(timeout.toMillis() + CALL_TIMEOUT_MARGIN.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			log.warn("Could not read max.message.bytes of {} ({}): a missing dead-letter topic is created with the "
					+ "broker's default, and a dead letter larger than the dead-letter producer's max.request.size is "
					+ "published without its value", topics,
					Objects.requireNonNull(ex.getCause(), "a failed Kafka future has a cause").toString());
			return Map.of();
		}
		return configs.entrySet().stream().collect(Collectors.toMap(entry -> entry.getKey().name(), entry -> {
			ConfigEntry bytes = entry.getValue().get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
			return bytes == null || bytes.value() == null ? KAFKA_DEFAULT_MAX_MESSAGE_BYTES
					: Integer.parseInt(bytes.value());
		}));
	}

	private int timeoutMillis() {
		return (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
	}

	private static int withHeadroom(int maxMessageBytes) {
		return (int) Math.min(Integer.MAX_VALUE, (long) maxMessageBytes + HEADER_HEADROOM);
	}

}
