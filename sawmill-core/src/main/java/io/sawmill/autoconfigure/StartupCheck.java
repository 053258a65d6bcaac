package io.sawmill.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.springframework.context.SmartLifecycle;
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
	private final String redisEndpoint;
	private final Duration timeout;
	private volatile boolean running;

	/** The dead-letter topics to check: {@code <topic><suffix>} for each source topic, when enabled. */
	record DeadLetterTopics(boolean enabled, String suffix, boolean create) {
	}

	StartupCheck(Admin admin, List<String> topics, DeadLetterTopics deadLetterTopics, String kafkaServers,
			RedisBatchWriter writer, int connections, String redisEndpoint, Duration timeout) {
		this.admin = admin;
		this.topics = topics;
		this.deadLetterTopics = deadLetterTopics;
		this.kafkaServers = kafkaServers;
		this.writer = writer;
		this.connections = connections;
		this.redisEndpoint = redisEndpoint;
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
			throw new SawmillConfigurationException("Redis at " + redisEndpoint + " cannot be used: " + rootMessage(ex),
					"Check spring.data.redis.host/port (or url), spring.data.redis.username/password and "
							+ "spring.data.redis.ssl.enabled.",
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
