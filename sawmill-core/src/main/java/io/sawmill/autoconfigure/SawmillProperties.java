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
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

import io.sawmill.listener.Delivery;
import io.sawmill.listener.OffsetReset;
import io.sawmill.listener.internal.ListenerConfig;

/**
 * Sawmill's {@code sawmill.*} properties. Kafka and Redis connections come from the
 * standard {@code spring.kafka.*} and {@code spring.data.redis.*} properties.
 */
@ConfigurationProperties("sawmill")
public class SawmillProperties {

	/** Whether to start Sawmill's listener containers. */
	private boolean enabled = true;

	/** Kafka topics to consume. */
	private List<String> topics = new ArrayList<>();

	/**
	 * Kafka consumer group id; unset: spring.kafka.consumer.group-id, else "sawmill".
	 */
	private @Nullable String groupId;

	/**
	 * Consumer threads per instance, each with its own Redis connection; useful up to the
	 * partition count.
	 */
	private int concurrency = ListenerConfig.DEFAULT_CONCURRENCY;

	/**
	 * Most records per poll (max.poll.records): the batch written to Redis in one round
	 * trip.
	 */
	private int batchSize = ListenerConfig.DEFAULT_BATCH_SIZE;

	/** How long stopping may wait for the in-flight batch to finish and commit. */
	private Duration shutdownTimeout = ListenerConfig.DEFAULT_SHUTDOWN_TIMEOUT;

	/** How long start-up waits for Kafka and Redis to answer before failing. */
	private Duration startupTimeout = Duration.ofSeconds(30);

	/** Records whose value is larger are dead-lettered instead of written. */
	private DataSize maxRecordSize = DataSize.ofBytes(ListenerConfig.DEFAULT_MAX_RECORD_BYTES);

	/**
	 * Whether a batch's HSET, EXPIRE and DEL writes of one key are merged into the fewest
	 * commands that leave the same final state.
	 */
	private boolean coalesceWrites = ListenerConfig.DEFAULT_COALESCE_WRITES;

	/**
	 * Whether a record that comes again may apply its writes again: at-least-once, or
	 * exactly-once (standalone and Sentinel Redis only).
	 */
	private Delivery delivery = ListenerConfig.DEFAULT_DELIVERY;

	/**
	 * With exactly-once delivery, what a partition reset below its watermark in Redis by
	 * someone other than Sawmill does: replay its records, or refuse to consume it.
	 */
	private OffsetReset offsetReset = ListenerConfig.DEFAULT_OFFSET_RESET;

	/**
	 * This instance's stable identity in the consumer group (Kafka static membership,
	 * group.instance.id; each consumer thread adds -n), e.g. a StatefulSet pod's name:
	 * restarted under it, the instance gets its partitions back without waiting for the
	 * session timeout. Only where it survives a restart and no two instances share it.
	 */
	private @Nullable String instanceId;

	@NestedConfigurationProperty
	private final SawmillConsumptionProperties consumption = new SawmillConsumptionProperties();

	@NestedConfigurationProperty
	private final SawmillMappingProperties mapping = new SawmillMappingProperties();

	/**
	 * Routes: each maps its topics to its own Redis type and key; when set,
	 * sawmill.topics and sawmill.mapping are not used.
	 */
	private List<SawmillRouteProperties> routes = new ArrayList<>();

	@NestedConfigurationProperty
	private final SawmillDeadLetterProperties deadLetter = new SawmillDeadLetterProperties();

	@NestedConfigurationProperty
	private final SawmillCircuitBreakerProperties circuitBreaker = new SawmillCircuitBreakerProperties();

	@NestedConfigurationProperty
	private final SawmillDoctorProperties doctor = new SawmillDoctorProperties();

	@NestedConfigurationProperty
	private final SawmillRedeliveryProperties redelivery = new SawmillRedeliveryProperties();

	@NestedConfigurationProperty
	private final SawmillPipelineProperties pipeline = new SawmillPipelineProperties();

	private final Retry retry = new Retry();

	@NestedConfigurationProperty
	private final SawmillMetricsProperties metrics = new SawmillMetricsProperties();

	private final Health health = new Health();

	public boolean isEnabled() {
		return enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public List<String> getTopics() {
		return topics;
	}

	public void setTopics(List<String> topics) {
		this.topics = topics;
	}

	public @Nullable String getGroupId() {
		return groupId;
	}

	public void setGroupId(@Nullable String groupId) {
		this.groupId = groupId;
	}

	public int getConcurrency() {
		return concurrency;
	}

	public void setConcurrency(int concurrency) {
		this.concurrency = concurrency;
	}

	public int getBatchSize() {
		return batchSize;
	}

	public void setBatchSize(int batchSize) {
		this.batchSize = batchSize;
	}

	public Duration getShutdownTimeout() {
		return shutdownTimeout;
	}

	public void setShutdownTimeout(Duration shutdownTimeout) {
		this.shutdownTimeout = shutdownTimeout;
	}

	public Duration getStartupTimeout() {
		return startupTimeout;
	}

	public void setStartupTimeout(Duration startupTimeout) {
		this.startupTimeout = startupTimeout;
	}

	public DataSize getMaxRecordSize() {
		return maxRecordSize;
	}

	public void setMaxRecordSize(DataSize maxRecordSize) {
		this.maxRecordSize = maxRecordSize;
	}

	public boolean isCoalesceWrites() {
		return coalesceWrites;
	}

	public void setCoalesceWrites(boolean coalesceWrites) {
		this.coalesceWrites = coalesceWrites;
	}

	public Delivery getDelivery() {
		return delivery;
	}

	public void setDelivery(Delivery delivery) {
		this.delivery = delivery;
	}

	public @Nullable String getInstanceId() {
		return instanceId;
	}

	public void setInstanceId(@Nullable String instanceId) {
		this.instanceId = instanceId;
	}

	public OffsetReset getOffsetReset() {
		return offsetReset;
	}

	public void setOffsetReset(OffsetReset offsetReset) {
		this.offsetReset = offsetReset;
	}

	public SawmillConsumptionProperties getConsumption() {
		return consumption;
	}

	public SawmillMappingProperties getMapping() {
		return mapping;
	}

	public List<SawmillRouteProperties> getRoutes() {
		return routes;
	}

	public void setRoutes(List<SawmillRouteProperties> routes) {
		this.routes = routes;
	}

	public SawmillDeadLetterProperties getDeadLetter() {
		return deadLetter;
	}

	public SawmillDoctorProperties getDoctor() {
		return doctor;
	}

	public SawmillCircuitBreakerProperties getCircuitBreaker() {
		return circuitBreaker;
	}

	public SawmillRedeliveryProperties getRedelivery() {
		return redelivery;
	}

	public SawmillPipelineProperties getPipeline() {
		return pipeline;
	}

	public Retry getRetry() {
		return retry;
	}

	public SawmillMetricsProperties getMetrics() {
		return metrics;
	}

	public Health getHealth() {
		return health;
	}

	/**
	 * Retrying a batch Redis did not fully acknowledge, before it is handed back to Kafka
	 * uncommitted.
	 */
	public static class Retry {

		/**
		 * Attempts per poll of a batch; after them the batch is polled again, never
		 * committed unwritten.
		 */
		private int maxAttempts = ListenerConfig.DEFAULT_RETRY_MAX_ATTEMPTS;

		/** Wait before the second attempt; doubles per attempt, with jitter. */
		private Duration initialBackoff = ListenerConfig.DEFAULT_RETRY_INITIAL_BACKOFF;

		/** Longest wait between attempts. */
		private Duration maxBackoff = ListenerConfig.DEFAULT_RETRY_MAX_BACKOFF;

		public int getMaxAttempts() {
			return maxAttempts;
		}

		public void setMaxAttempts(int maxAttempts) {
			this.maxAttempts = maxAttempts;
		}

		public Duration getInitialBackoff() {
			return initialBackoff;
		}

		public void setInitialBackoff(Duration initialBackoff) {
			this.initialBackoff = initialBackoff;
		}

		public Duration getMaxBackoff() {
			return maxBackoff;
		}

		public void setMaxBackoff(Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

	}

	/** The health contributors that talk to Redis ('redis', 'sawmillRedis'). */
	public static class Health {

		/**
		 * How long one health check may wait for Redis before it reports DOWN; keep it
		 * below the probes' timeout.
		 */
		private Duration timeout = Duration.ofSeconds(2);

		public Duration getTimeout() {
			return timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

	}

}
