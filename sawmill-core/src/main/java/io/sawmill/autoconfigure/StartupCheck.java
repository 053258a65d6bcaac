package io.sawmill.autoconfigure;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;

import io.sawmill.redis.RedisBatchWriter;
import io.sawmill.redis.internal.LettucePipelinedWriter;

/**
 * Before the listener containers start: Kafka answers and has every topic, and Redis answers a
 * PING on the writing path (whose connections, one per listener thread, are opened now). Any
 * failure stops start-up with what to fix.
 */
final class StartupCheck implements SmartLifecycle {

	private final Admin admin;
	private final List<String> topics;
	private final DeadLetterTopics deadLetterTopics;
	private final String kafkaServers;
	private final RedisBatchWriter writer;
	private final int connections;
	private final RedisTarget redis;
	private final Duration timeout;
	private volatile boolean running;

	/** The dead-letter topics to check: {@code <topic><suffix>} for each source topic, when enabled. */
	record DeadLetterTopics(boolean enabled, String suffix, boolean create) {
	}

	/**
	 * Where Redis was looked for, for the message when it cannot be used.
	 * @param where e.g. {@code Redis at host:port} or {@code Redis Cluster at node,node}
	 * @param settings the properties that say where Redis is
	 */
	record RedisTarget(String where, String settings) {

		static RedisTarget of(LettuceConnectionFactory factory) {
			if (factory.isClusterAware()) {
				return new RedisTarget("Redis Cluster at " + nodes(factory.getClusterConfiguration().getClusterNodes()),
						"spring.data.redis.cluster.nodes");
			}
			if (factory.isRedisSentinelAware()) {
				RedisSentinelConfiguration sentinel = factory.getSentinelConfiguration();
				return new RedisTarget("Redis master '" + sentinel.getMaster().getName() + "' of the Sentinels at "
						+ nodes(sentinel.getSentinels()), "spring.data.redis.sentinel.master/nodes");
			}
			return new RedisTarget("Redis at " + factory.getHostName() + ":" + factory.getPort(),
					"spring.data.redis.host/port (or url)");
		}

		private static String nodes(Collection<RedisNode> nodes) {
			return nodes.stream().map(RedisNode::asString).collect(Collectors.joining(","));
		}
	}

	StartupCheck(Admin admin, List<String> topics, DeadLetterTopics deadLetterTopics, String kafkaServers,
			RedisBatchWriter writer, int connections, RedisTarget redis, Duration timeout) {
		this.admin = admin;
		this.topics = topics;
		this.deadLetterTopics = deadLetterTopics;
		this.kafkaServers = kafkaServers;
		this.writer = writer;
		this.connections = connections;
		this.redis = redis;
		this.timeout = timeout;
	}

	@Override
	public void start() {
		checkKafka();
		checkRedis();
		running = true;
	}

	private void checkKafka() {
		Set<String> existing;
		try {
			existing = admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new SawmillConfigurationException("Kafka at " + kafkaServers + " did not answer within " + timeout
					+ ": " + (ex.getCause() != null ? ex.getCause() : ex),
					"Check spring.kafka.bootstrap-servers (and spring.kafka.security.*), or raise sawmill.startup-timeout.",
					ex);
		}
		List<String> missing = topics.stream().filter(topic -> !existing.contains(topic)).toList();
		if (!missing.isEmpty()) {
			throw new SawmillConfigurationException("Topic(s) " + missing + " do not exist on Kafka at " + kafkaServers,
					"Create the topic(s) or fix sawmill.topics.");
		}
		if (deadLetterTopics.enabled()) {
			checkDeadLetterTopics(existing);
		}
	}

	private void checkDeadLetterTopics(Set<String> existing) {
		List<String> sources = topics.stream()
			.filter(topic -> !existing.contains(topic + deadLetterTopics.suffix()))
			.toList();
		if (sources.isEmpty()) {
			return;
		}
		List<String> missing = sources.stream().map(topic -> topic + deadLetterTopics.suffix()).toList();
		if (!deadLetterTopics.create()) {
			throw new SawmillConfigurationException("Dead-letter topic(s) " + missing + " do not exist on Kafka at "
					+ kafkaServers, "Create them, set sawmill.dead-letter.create-topics=true, or turn dead letters off "
							+ "with sawmill.dead-letter.enabled=false.");
		}
		try {
			Map<String, TopicDescription> described = admin.describeTopics(sources).allTopicNames()
				.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			List<NewTopic> create = sources.stream()
				.map(topic -> new NewTopic(topic + deadLetterTopics.suffix(),
						Optional.of(described.get(topic).partitions().size()), Optional.empty()))
				.toList();
			admin.createTopics(create).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (ExecutionException ex) {
			if (!(ex.getCause() instanceof TopicExistsException)) {
				throw new SawmillConfigurationException("Could not create dead-letter topic(s) " + missing + ": "
						+ ex.getCause(), "Create them yourself, or grant this client CREATE on the cluster.", ex);
			}
		}
		catch (TimeoutException ex) {
			throw new SawmillConfigurationException("Creating dead-letter topic(s) " + missing + " timed out",
					"Create them yourself, or raise sawmill.startup-timeout.", ex);
		}
	}

	private void checkRedis() {
		try {
			if (writer instanceof LettucePipelinedWriter lettuce) {
				lettuce.open(connections);
			}
			writer.ping();
		}
		catch (RuntimeException ex) {
			throw new SawmillConfigurationException(redis.where() + " cannot be used: " + rootMessage(ex),
					"Check " + redis.settings() + ", spring.data.redis.username/password and spring.data.redis.ssl.enabled.",
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
