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
package io.sawmill.doctor.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Says why Sawmill may be slow or may lose data on this host: CPU quota and throttling,
 * ephemeral ports, {@code somaxconn}, transparent huge pages, Redis RTT, zone, version,
 * eviction policy, persistence and replicas, partitions vs consumers and
 * {@code client.rack}. Each {@link Finding} has a {@link Verdict}, the measured value,
 * why it matters and what to change (docs/operations.md#doctor-findings).
 * <p>
 * {@link #examine()} only reads: files under the host root, PING / INFO / CONFIG GET on
 * Redis and a topic description from Kafka. It never throws for what it finds; a server
 * that does not answer within {@link DoctorConfig#timeout()} becomes a
 * {@link Verdict#FAIL} finding. Thread-safe; each call measures again.
 */
public final class Doctor {

	private final DoctorConfig config;

	private final @Nullable LettuceConnectionFactory redis;

	private final @Nullable Map<String, Object> kafkaAdmin;

	private Doctor(DoctorConfig config, @Nullable LettuceConnectionFactory redis,
			@Nullable Map<String, Object> kafkaAdmin) {
		this.config = config;
		this.redis = redis;
		this.kafkaAdmin = kafkaAdmin;
	}

	public static Builder builder(DoctorConfig config) {
		return new Builder(config);
	}

	public DoctorConfig config() {
		return config;
	}

	/**
	 * Measures everything again and returns the findings: host, then Redis, then Kafka.
	 */
	public DoctorReport examine() {
		List<Finding> findings = new ArrayList<>();
		findings.addAll(CpuChecks.check(config.hostRoot()));
		findings.addAll(KernelChecks.check(config.hostRoot()));
		if (redis != null) {
			findings.addAll(redisFindings(redis));
		}
		if (kafkaAdmin != null) {
			findings.add(kafkaPartitions(kafkaAdmin));
			findings.add(KafkaChecks.rack(config));
		}
		return DoctorReport.of(findings);
	}

	private List<Finding> redisFindings(LettuceConnectionFactory redis) {
		try {
			List<Finding> findings = new ArrayList<>();
			for (RedisNodeFacts node : bounded(() -> RedisInspection.inspect(redis, config.pings()))) {
				findings.addAll(RedisChecks.check(node, config));
			}
			return findings;
		}
		catch (RuntimeException ex) {
			return List.of(new Finding(RedisChecks.CONNECTION, Verdict.FAIL, "Redis did not answer: " + rootMessage(ex),
					"Sawmill cannot write without it", "Check spring.data.redis.* (host, port, credentials, ssl)."));
		}
	}

	private Finding kafkaPartitions(Map<String, Object> kafkaAdmin) {
		if (config.topics().isEmpty() && config.topicPattern().isEmpty()) {
			return Finding.unknown(KafkaChecks.PARTITIONS, "no topics configured", "", "Set sawmill.topics.");
		}
		Map<String, Object> properties = new HashMap<>(kafkaAdmin);
		properties.putIfAbsent("client.id", "sawmill-doctor");
		Admin admin = Admin.create(properties);
		try {
			List<String> topics = topics(admin);
			if (topics.isEmpty()) {
				return KafkaChecks.noTopicMatches(config.topicPattern().get());
			}
			Map<String, TopicDescription> described = admin.describeTopics(topics)
				.allTopicNames()
				.get(config.timeout().toMillis(), TimeUnit.MILLISECONDS);
			Map<String, Integer> partitions = new LinkedHashMap<>();
			topics.forEach(topic -> partitions.put(topic,
					Objects.requireNonNull(described.get(topic), "described as asked").partitions().size()));
			return KafkaChecks.partitions(partitions, config);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return KafkaChecks.unreachable("interrupted");
		}
		catch (ExecutionException | TimeoutException | RuntimeException ex) {
			return KafkaChecks
				.unreachable(ex instanceof TimeoutException ? "no answer within " + config.timeout() : rootMessage(ex));
		}
		finally {
			// not close(): it would wait for a request to an unreachable broker until
			// default.api.timeout.ms
			admin.close(Duration.ofSeconds(1));
		}
	}

	/**
	 * The topics named, or with a topic pattern every topic on the broker that it matches
	 * (the pattern covers the named ones).
	 */
	private List<String> topics(Admin admin) throws InterruptedException, ExecutionException, TimeoutException {
		if (config.topicPattern().isEmpty()) {
			return config.topics();
		}
		Pattern pattern = config.topicPattern().get();
		return admin.listTopics()
			.names()
			.get(config.timeout().toMillis(), TimeUnit.MILLISECONDS)
			.stream()
			.filter(topic -> pattern.matcher(topic).matches())
			.sorted()
			.toList();
	}

	private <T> T bounded(Supplier<T> task) {
		CompletableFuture<T> future = CompletableFuture.supplyAsync(task, runnable -> {
			Thread thread = new Thread(runnable, "sawmill-doctor");
			thread.setDaemon(true);
			thread.start();
		});
		Duration timeout = config.timeout();
		try {
			return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException(
					rootMessage(Objects.requireNonNull(ex.getCause(), "a failed task has a cause")), ex.getCause());
		}
		catch (TimeoutException ex) {
			future.cancel(true);
			throw new IllegalStateException("no answer within " + timeout, ex);
		}
	}

	private static String rootMessage(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root.getClass().getSimpleName() + ": " + root.getMessage();
	}

	public static final class Builder {

		private final DoctorConfig config;

		private @Nullable LettuceConnectionFactory redis;

		private @Nullable Map<String, Object> kafkaAdmin;

		private Builder(DoctorConfig config) {
			if (config == null) {
				throw new IllegalArgumentException("config must not be null");
			}
			this.config = config;
		}

		/**
		 * The Redis the service writes to; examined through the factory's connections.
		 * Not closed by the doctor.
		 */
		public Builder redis(LettuceConnectionFactory factory) {
			this.redis = factory;
			return this;
		}

		/**
		 * Properties of a Kafka Admin client, opened for each examination and closed
		 * after it.
		 */
		public Builder kafka(Map<String, Object> adminProperties) {
			this.kafkaAdmin = Map.copyOf(adminProperties);
			return this;
		}

		public Doctor build() {
			return new Doctor(config, redis, kafkaAdmin);
		}

	}

}
