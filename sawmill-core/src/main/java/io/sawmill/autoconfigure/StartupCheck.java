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
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;

import io.sawmill.redis.internal.RedisBatchWriter;

/**
 * Before the listener containers start: Kafka answers and has every topic, and Redis
 * answers a PING on the writing path (whose connections, one per listener thread, are
 * opened now). Any failure stops start-up with what to fix.
 * <p>
 * Kafka's topic list is asked for as soon as this bean is created, as the Admin client's
 * own asynchronous call, while the rest of the context (the web server, the actuator) is
 * still being built; {@link #start()} waits for it and judges it as if it were asked for
 * then, and asks again when the context is started again. Redis is checked in
 * {@link #start()}, at the same time as Kafka, on a thread of its own: nothing is opened
 * before the context starts, so a context that fails before then leaves nothing to close.
 */
final class StartupCheck implements SmartLifecycle, InitializingBean {

	/**
	 * How much longer than its own timeout a call to Kafka is waited for, before giving
	 * up on it.
	 */
	private static final Duration CALL_TIMEOUT_MARGIN = Duration.ofSeconds(1);

	private static final Logger log = LoggerFactory.getLogger(StartupCheck.class);

	/**
	 * A thread of its own for each Redis check, so that it runs while Kafka is checked.
	 */
	private static final Executor REDIS_CHECK_THREAD = check -> {
		Thread thread = new Thread(check, "sawmill-startup-redis");
		thread.setDaemon(true);
		thread.start();
	};

	private final Admin admin;

	private final List<String> topics;

	private final @Nullable Pattern topicPattern;

	private final DeadLetterTopics deadLetterTopics;

	private final String kafkaServers;

	private final RedisBatchWriter writer;

	private final int connections;

	private final RedisTarget redis;

	private final Duration timeout;

	private volatile boolean running;

	/** The topic list asked for at creation, taken by the first {@link #start()}. */
	private @Nullable Future<Set<String>> topicList;

	/**
	 * Where Redis was looked for, for the message when it cannot be used.
	 *
	 * @param where e.g. {@code Redis at host:port} or {@code Redis Cluster at node,node}
	 * @param settings the properties that say where Redis is
	 */
	record RedisTarget(String where, String settings) {

		static RedisTarget of(LettuceConnectionFactory factory) {
			if (factory.isClusterAware()) {
				return new RedisTarget("Redis Cluster at " + nodes(Objects
					.requireNonNull(factory.getClusterConfiguration(),
							"a cluster-aware factory has a cluster configuration")
					.getClusterNodes()), "spring.data.redis.cluster.nodes");
			}
			if (factory.isRedisSentinelAware()) {
				RedisSentinelConfiguration sentinel = Objects.requireNonNull(factory.getSentinelConfiguration(),
						"a Sentinel-aware factory has a Sentinel configuration");
				return new RedisTarget(
						"Redis master '" + Objects
							.requireNonNull(sentinel.getMaster(), "a Sentinel configuration names its master")
							.getName() + "' of the Sentinels at " + nodes(sentinel.getSentinels()),
						"spring.data.redis.sentinel.master/nodes");
			}
			return new RedisTarget("Redis at " + factory.getHostName() + ":" + factory.getPort(),
					"spring.data.redis.host/port (or url)");
		}

		private static String nodes(Collection<RedisNode> nodes) {
			return nodes.stream().map(RedisNode::asString).collect(Collectors.joining(","));
		}
	}

	/**
	 * @param topicPattern the pattern the consumers subscribe with when a route has one
	 * (it needs no topic to exist: one matching none is a WARN), or {@code null}
	 */
	StartupCheck(Admin admin, List<String> topics, @Nullable Pattern topicPattern, DeadLetterTopics deadLetterTopics,
			String kafkaServers, RedisBatchWriter writer, int connections, RedisTarget redis, Duration timeout) {
		this.admin = admin;
		this.topics = topics;
		this.topicPattern = topicPattern;
		this.deadLetterTopics = deadLetterTopics;
		this.kafkaServers = kafkaServers;
		this.writer = writer;
		this.connections = connections;
		this.redis = redis;
		this.timeout = timeout;
	}

	/** Asks Kafka for its topics. */
	@Override
	public synchronized void afterPropertiesSet() {
		topicList = listTopics();
	}

	/**
	 * Checks Kafka on the calling thread and Redis on a thread of its own, at the same
	 * time; returns when both passed. When both fail, Kafka's failure is the one thrown.
	 */
	@Override
	public synchronized void start() {
		long started = System.nanoTime();
		Future<Set<String>> names = topicList != null ? topicList : listTopics();
		topicList = null;
		CompletableFuture<Void> redisChecked = CompletableFuture.runAsync(this::checkRedis, REDIS_CHECK_THREAD);
		try {
			checkKafka(names);
		}
		catch (RuntimeException ex) {
			// nothing left opening connections behind a failed start
			redisChecked.handle((ignored, failure) -> null).join();
			throw ex;
		}
		try {
			redisChecked.join();
		}
		catch (CompletionException ex) {
			throw (ex.getCause() instanceof RuntimeException failure) ? failure : ex;
		}
		running = true;
		log.info("Sawmill start-up checks passed in {} ms: Kafka at {} has the topics, {} answers on {} connection(s)",
				TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), kafkaServers, redis.where(), connections);
	}

	private Future<Set<String>> listTopics() {
		// the call's own timeout, so that nothing is left pending in the Admin client
		// when it gives up
		return admin.listTopics(new ListTopicsOptions().timeoutMs(timeoutMillis())).names();
	}

	private void checkKafka(Future<Set<String>> names) {
		Set<String> existing;
		try {
			existing = names.get(timeout.toMillis() + CALL_TIMEOUT_MARGIN.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new SawmillConfigurationException(
					"Kafka at " + kafkaServers + " did not answer within " + timeout + ": "
							+ (ex.getCause() != null ? ex.getCause() : ex),
					"Check spring.kafka.bootstrap-servers (and spring.kafka.security.*), or raise sawmill.startup-timeout.",
					ex);
		}
		List<String> missing = topics.stream().filter(topic -> !existing.contains(topic)).toList();
		if (!missing.isEmpty()) {
			throw new SawmillConfigurationException("Topic(s) " + missing + " do not exist on Kafka at " + kafkaServers,
					"Create the topic(s) or fix sawmill.topics.");
		}
		if (topicPattern != null
				&& existing.stream().noneMatch(t -> !topics.contains(t) && topicPattern.matcher(t).matches())) {
			log.warn(
					"No topic on Kafka at {} matches a route's topic-pattern yet: the consumers start reading a matching "
							+ "topic once their metadata refresh sees it (spring.kafka.consumer.properties.metadata.max.age.ms, "
							+ "5 minutes by default).",
					kafkaServers);
		}
		deadLetterTopics.ensure(existing, kafkaServers);
	}

	private int timeoutMillis() {
		return (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
	}

	private void checkRedis() {
		try {
			writer.open(connections);
			writer.ping();
		}
		catch (RuntimeException ex) {
			throw new SawmillConfigurationException(redis.where() + " cannot be used: " + rootMessage(ex), "Check "
					+ redis.settings() + ", spring.data.redis.username/password and spring.data.redis.ssl.enabled.",
					ex);
		}
	}

	private static String rootMessage(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root == ex ? String.valueOf(ex.getMessage()) : ex.getMessage() + " (" + root.getMessage() + ")";
	}

	@Override
	public void stop() {
		running = false;
	}

	@Override
	public boolean isRunning() {
		return running;
	}

	/** Before the listener containers. */
	@Override
	public int getPhase() {
		return AbstractMessageListenerContainer.DEFAULT_PHASE - 1;
	}

}
