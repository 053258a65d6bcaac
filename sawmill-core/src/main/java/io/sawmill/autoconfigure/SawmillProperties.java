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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

import io.sawmill.admin.internal.SawmillOperations;
import io.sawmill.deadletter.internal.DeadLetterBrakeConfig;
import io.sawmill.deadletter.internal.DeadLetterConfig;
import io.sawmill.doctor.internal.DoctorConfig;
import io.sawmill.listener.ConsumptionMode;
import io.sawmill.listener.Delivery;
import io.sawmill.listener.OffsetReset;
import io.sawmill.listener.internal.ListenerConfig;
import io.sawmill.listener.internal.ShareConfig;
import io.sawmill.mapping.KeyEncoding;
import io.sawmill.mapping.json.JsonHashMapperConfig;
import io.sawmill.mapping.registry.internal.SchemaRegistryConfig;
import io.sawmill.mapping.route.HashUpdate;
import io.sawmill.mapping.route.KeyFormat;
import io.sawmill.mapping.route.ListEnd;
import io.sawmill.mapping.route.NullFields;
import io.sawmill.mapping.route.RedisType;
import io.sawmill.mapping.route.ValueFormat;
import io.sawmill.redis.ReplicaShortfallPolicy;
import io.sawmill.redis.internal.PipelineConfig;

/**
 * Sawmill's {@code sawmill.*} properties. Kafka and Redis connections come from the
 * standard {@code spring.kafka.*} and {@code spring.data.redis.*} properties. Each group
 * ({@code sawmill.pipeline.*}, {@code sawmill.routes[n].*}, …) is a class nested here.
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

	private final Consumption consumption = new Consumption();

	private final Mapping mapping = new Mapping();

	/**
	 * Routes: each maps its topics to its own Redis type and key; when set,
	 * sawmill.topics and sawmill.mapping are not used.
	 */
	private List<Route> routes = new ArrayList<>();

	private final DeadLetter deadLetter = new DeadLetter();

	private final CircuitBreaker circuitBreaker = new CircuitBreaker();

	private final Doctor doctor = new Doctor();

	private final Redelivery redelivery = new Redelivery();

	private final Pipeline pipeline = new Pipeline();

	private final Retry retry = new Retry();

	private final Metrics metrics = new Metrics();

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

	public Consumption getConsumption() {
		return consumption;
	}

	public Mapping getMapping() {
		return mapping;
	}

	public List<Route> getRoutes() {
		return routes;
	}

	public void setRoutes(List<Route> routes) {
		this.routes = routes;
	}

	public DeadLetter getDeadLetter() {
		return deadLetter;
	}

	public Doctor getDoctor() {
		return doctor;
	}

	public CircuitBreaker getCircuitBreaker() {
		return circuitBreaker;
	}

	public Redelivery getRedelivery() {
		return redelivery;
	}

	public Pipeline getPipeline() {
		return pipeline;
	}

	public Retry getRetry() {
		return retry;
	}

	public Metrics getMetrics() {
		return metrics;
	}

	public Health getHealth() {
		return health;
	}

	/**
	 * How the service reads its topics: a consumer group, or a share group (KIP-932).
	 */
	public static class Consumption {

		/**
		 * GROUP (a consumer group, one thread per partition at most) or SHARE (a share
		 * group, any number of threads; order-independent writes only).
		 */
		private ConsumptionMode mode = ConsumptionMode.GROUP;

		/**
		 * The share group's id with mode SHARE; unset takes the service's group id. Must
		 * not be the id of an existing consumer group.
		 */
		private @Nullable String shareGroupId;

		/**
		 * The share group's delivery count limit (the broker's
		 * group.share.delivery.count.limit, or the group's share.delivery.count.limit): a
		 * record Redis did not take on its last delivery is dead-lettered with its
		 * reason.
		 */
		private int deliveryLimit = ShareConfig.DEFAULT_DELIVERY_LIMIT;

		public ConsumptionMode getMode() {
			return mode;
		}

		public void setMode(ConsumptionMode mode) {
			this.mode = mode;
		}

		public @Nullable String getShareGroupId() {
			return shareGroupId;
		}

		public void setShareGroupId(@Nullable String shareGroupId) {
			this.shareGroupId = shareGroupId;
		}

		public int getDeliveryLimit() {
			return deliveryLimit;
		}

		public void setDeliveryLimit(int deliveryLimit) {
			this.deliveryLimit = deliveryLimit;
		}

	}

	/**
	 * The built-in JSON-to-hash mapping, used when the application defines no
	 * RecordMapper bean.
	 */
	public static class Mapping {

		/**
		 * Redis key of each record, e.g. 'user:{userId}'; '{@key}' is the Kafka key, dot
		 * paths reach nested fields, '{{' and '}}' are literal braces.
		 */
		private @Nullable String keyTemplate;

		/**
		 * How '{@key}' writes the Kafka key: UTF8 (text keys; others are dead-lettered),
		 * HEX or BASE64 (URL-safe, unpadded) for binary keys.
		 */
		private KeyEncoding keyEncoding = KeyEncoding.DEFAULT;

		/**
		 * Top-level value fields to write to a hash or stream (objects are flattened with
		 * dot paths); empty writes all.
		 */
		private List<String> fields = new ArrayList<>();

		/** Time to live of every key written; 0 means no expiry. */
		private Duration ttl = Duration.ZERO;

		/**
		 * Version-guarded writes (Redis 7 Functions): 'timestamp' (Kafka record
		 * timestamp) or 'field:<json field>' (integer or ISO-8601 instant); an older
		 * record than Redis holds is skipped and counted stale. Unset: off.
		 */
		private @Nullable String version;

		/**
		 * With a version, how long a deleted key keeps its version so that a late older
		 * record cannot recreate it; 0 keeps none.
		 */
		private Duration tombstoneRetention = JsonHashMapperConfig.DEFAULT_TOMBSTONE_RETENTION;

		public @Nullable String getKeyTemplate() {
			return keyTemplate;
		}

		public void setKeyTemplate(@Nullable String keyTemplate) {
			this.keyTemplate = keyTemplate;
		}

		public KeyEncoding getKeyEncoding() {
			return keyEncoding;
		}

		public void setKeyEncoding(KeyEncoding keyEncoding) {
			this.keyEncoding = keyEncoding;
		}

		public List<String> getFields() {
			return fields;
		}

		public void setFields(List<String> fields) {
			this.fields = fields;
		}

		public Duration getTtl() {
			return ttl;
		}

		public void setTtl(Duration ttl) {
			this.ttl = ttl;
		}

		public @Nullable String getVersion() {
			return version;
		}

		public void setVersion(@Nullable String version) {
			this.version = version;
		}

		public Duration getTombstoneRetention() {
			return tombstoneRetention;
		}

		public void setTombstoneRetention(Duration tombstoneRetention) {
			this.tombstoneRetention = tombstoneRetention;
		}

	}

	/**
	 * One entry of {@code sawmill.routes}: a mapping ({@code key-template},
	 * {@code key-encoding}, {@code fields}, {@code ttl}, as in {@code sawmill.mapping})
	 * with its topics, Redis type and value format (docs/mapping.md).
	 */
	public static class Route extends Mapping {

		/** The route's name, used in log lines and errors. */
		private @Nullable String name;

		/** The topics this route reads; a topic belongs to one route. */
		private List<String> topics = new ArrayList<>();

		/**
		 * A Java regular expression the whole topic name must match, instead of topics:
		 * the route reads every topic it matches, also ones created later. Needs
		 * dead-letter-topic while dead letters are on.
		 */
		private @Nullable String topicPattern;

		/**
		 * The Redis type written: HASH, STRING, SORTED_SET, SET, LIST, STREAM or DELETE.
		 */
		private RedisType type = RedisType.HASH;

		/** Value field holding a record's TTL in seconds. */
		private @Nullable String ttlField;

		/** Kafka header holding a record's TTL in seconds. */
		private @Nullable String ttlHeader;

		/** What a JSON null does to a HASH field: SKIP (keeps it) or DELETE (HDEL). */
		private NullFields nullFields = NullFields.SKIP;

		/**
		 * How a HASH is updated: MERGE (HSET) or REPLACE (atomically becomes exactly the
		 * record's fields).
		 */
		private HashUpdate hashUpdate = HashUpdate.MERGE;

		/** The field STRING and LIST write; unset writes the whole value. */
		private @Nullable String valueField;

		/** The value field holding a SORTED_SET member's score. */
		private @Nullable String scoreField;

		/** The member of a SET or SORTED_SET, in key-template syntax, e.g. '{@key}'. */
		private @Nullable String member;

		/** Where LIST pushes: LEFT (LPUSH, newest first) or RIGHT (RPUSH). */
		private ListEnd listEnd = ListEnd.LEFT;

		/** Cap of a LIST (LTRIM) or STREAM (XADD MAXLEN ~); 0 means none. */
		private long maxLength = 0;

		/**
		 * How values are read: JSON, STRING, AVRO, PROTOBUF, JSON_SCHEMA or DESERIALIZER.
		 */
		private ValueFormat valueFormat = ValueFormat.JSON;

		/**
		 * The Avro schema (JSON) of unframed AVRO values; unset reads registry-framed
		 * Avro.
		 */
		private @Nullable String avroSchema;

		/** The Kafka Deserializer class of DESERIALIZER values. */
		private @Nullable String valueDeserializer;

		/**
		 * Properties passed to the value deserializer's configure(), e.g.
		 * schema.registry.url.
		 */
		private Map<String, String> valueDeserializerProperties = new LinkedHashMap<>();

		/**
		 * How the Kafka key ({key}) is read: RAW, or registry-framed AVRO, PROTOBUF or
		 * JSON_SCHEMA.
		 */
		private KeyFormat keyFormat = KeyFormat.RAW;

		/** The schema registry of registry-framed values and keys. */
		private final SchemaRegistry schemaRegistry = new SchemaRegistry();

		/**
		 * This route's dead-letter topic; unset uses '<source topic>' +
		 * sawmill.dead-letter.topic-suffix.
		 */
		private @Nullable String deadLetterTopic;

		public @Nullable String getName() {
			return name;
		}

		public void setName(@Nullable String name) {
			this.name = name;
		}

		public @Nullable String getTopicPattern() {
			return topicPattern;
		}

		public void setTopicPattern(@Nullable String topicPattern) {
			this.topicPattern = topicPattern;
		}

		public List<String> getTopics() {
			return topics;
		}

		public void setTopics(List<String> topics) {
			this.topics = topics;
		}

		public RedisType getType() {
			return type;
		}

		public void setType(RedisType type) {
			this.type = type;
		}

		public @Nullable String getTtlField() {
			return ttlField;
		}

		public void setTtlField(@Nullable String ttlField) {
			this.ttlField = ttlField;
		}

		public @Nullable String getTtlHeader() {
			return ttlHeader;
		}

		public void setTtlHeader(@Nullable String ttlHeader) {
			this.ttlHeader = ttlHeader;
		}

		public NullFields getNullFields() {
			return nullFields;
		}

		public void setNullFields(NullFields nullFields) {
			this.nullFields = nullFields;
		}

		public HashUpdate getHashUpdate() {
			return hashUpdate;
		}

		public void setHashUpdate(HashUpdate hashUpdate) {
			this.hashUpdate = hashUpdate;
		}

		public @Nullable String getValueField() {
			return valueField;
		}

		public void setValueField(@Nullable String valueField) {
			this.valueField = valueField;
		}

		public @Nullable String getScoreField() {
			return scoreField;
		}

		public void setScoreField(@Nullable String scoreField) {
			this.scoreField = scoreField;
		}

		public @Nullable String getMember() {
			return member;
		}

		public void setMember(@Nullable String member) {
			this.member = member;
		}

		public ListEnd getListEnd() {
			return listEnd;
		}

		public void setListEnd(ListEnd listEnd) {
			this.listEnd = listEnd;
		}

		public long getMaxLength() {
			return maxLength;
		}

		public void setMaxLength(long maxLength) {
			this.maxLength = maxLength;
		}

		public ValueFormat getValueFormat() {
			return valueFormat;
		}

		public void setValueFormat(ValueFormat valueFormat) {
			this.valueFormat = valueFormat;
		}

		public @Nullable String getAvroSchema() {
			return avroSchema;
		}

		public void setAvroSchema(@Nullable String avroSchema) {
			this.avroSchema = avroSchema;
		}

		public @Nullable String getValueDeserializer() {
			return valueDeserializer;
		}

		public void setValueDeserializer(@Nullable String valueDeserializer) {
			this.valueDeserializer = valueDeserializer;
		}

		public Map<String, String> getValueDeserializerProperties() {
			return valueDeserializerProperties;
		}

		public void setValueDeserializerProperties(Map<String, String> valueDeserializerProperties) {
			this.valueDeserializerProperties = valueDeserializerProperties;
		}

		public KeyFormat getKeyFormat() {
			return keyFormat;
		}

		public void setKeyFormat(KeyFormat keyFormat) {
			this.keyFormat = keyFormat;
		}

		public SchemaRegistry getSchemaRegistry() {
			return schemaRegistry;
		}

		public @Nullable String getDeadLetterTopic() {
			return deadLetterTopic;
		}

		public void setDeadLetterTopic(@Nullable String deadLetterTopic) {
			this.deadLetterTopic = deadLetterTopic;
		}

		/** A route's schema registry: its Confluent-compatible API and how to call it. */
		public static class SchemaRegistry {

			/**
			 * Base URL of the registry's Confluent-compatible API, e.g.
			 * http://registry:8081 or Apicurio's http://registry:8080/apis/ccompat/v7.
			 */
			private @Nullable String url;

			/** User of HTTP basic authentication; set together with password. */
			private @Nullable String username;

			/** Password of HTTP basic authentication. */
			private @Nullable String password;

			/**
			 * How long one schema lookup may take; past it the registry counts as
			 * unreachable and the batch is polled again.
			 */
			private Duration requestTimeout = SchemaRegistryConfig.DEFAULT_REQUEST_TIMEOUT;

			/**
			 * How many parsed schemas the route keeps (by id; least recently used
			 * dropped).
			 */
			private int cacheSize = SchemaRegistryConfig.DEFAULT_CACHE_SIZE;

			public @Nullable String getUrl() {
				return url;
			}

			public void setUrl(@Nullable String url) {
				this.url = url;
			}

			public @Nullable String getUsername() {
				return username;
			}

			public void setUsername(@Nullable String username) {
				this.username = username;
			}

			public @Nullable String getPassword() {
				return password;
			}

			public void setPassword(@Nullable String password) {
				this.password = password;
			}

			public Duration getRequestTimeout() {
				return requestTimeout;
			}

			public void setRequestTimeout(Duration requestTimeout) {
				this.requestTimeout = requestTimeout;
			}

			public int getCacheSize() {
				return cacheSize;
			}

			public void setCacheSize(int cacheSize) {
				this.cacheSize = cacheSize;
			}

		}

	}

	/** Where records that cannot be written go: a dead-letter topic per source topic. */
	public static class DeadLetter {

		/**
		 * Whether to publish records that cannot be written to a dead-letter topic; when
		 * off they are logged and counted as invalid.
		 */
		private boolean enabled = true;

		/** The dead-letter topic of a source topic is its name plus this suffix. */
		private String topicSuffix = DeadLetterConfig.DEFAULT_TOPIC_SUFFIX;

		/**
		 * Whether start-up creates a missing dead-letter topic (with the source topic's
		 * partition count).
		 */
		private boolean createTopics = true;

		/**
		 * How long one attempt waits for Kafka to acknowledge the dead letters of a
		 * batch.
		 */
		private Duration sendTimeout = DeadLetterConfig.DEFAULT_SEND_TIMEOUT;

		/**
		 * Attempts to publish the dead letters of a batch before the batch is polled
		 * again, uncommitted.
		 */
		private int maxAttempts = DeadLetterConfig.DEFAULT_MAX_ATTEMPTS;

		/**
		 * When too many recent records are dead-lettered: stop committing, pause, and
		 * wait for an operator.
		 */
		private final Brake brake = new Brake();

		public boolean isEnabled() {
			return enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getTopicSuffix() {
			return topicSuffix;
		}

		public void setTopicSuffix(String topicSuffix) {
			this.topicSuffix = topicSuffix;
		}

		public boolean isCreateTopics() {
			return createTopics;
		}

		public void setCreateTopics(boolean createTopics) {
			this.createTopics = createTopics;
		}

		public Duration getSendTimeout() {
			return sendTimeout;
		}

		public void setSendTimeout(Duration sendTimeout) {
			this.sendTimeout = sendTimeout;
		}

		public int getMaxAttempts() {
			return maxAttempts;
		}

		public void setMaxAttempts(int maxAttempts) {
			this.maxAttempts = maxAttempts;
		}

		/**
		 * The most dead letters one re-drive (POST /actuator/sawmill/redrive) may cover.
		 */
		private int maxRedriveRecords = SawmillOperations.DEFAULT_MAX_REDRIVE_RECORDS;

		public int getMaxRedriveRecords() {
			return maxRedriveRecords;
		}

		public void setMaxRedriveRecords(int maxRedriveRecords) {
			this.maxRedriveRecords = maxRedriveRecords;
		}

		public Brake getBrake() {
			return brake;
		}

		/**
		 * The dead-letter brake (docs/reliability.md): trips on mass dead letters instead
		 * of draining the topic into the DLT.
		 */
		public static class Brake {

			/**
			 * Whether mass dead letters stop consumption until the brake is released.
			 */
			private boolean enabled = true;

			/**
			 * How many of a partition's most recent records (by offset) the ratio is
			 * taken over.
			 */
			private int window = DeadLetterBrakeConfig.DEFAULT_WINDOW;

			/**
			 * The share of a partition's last window records that, dead-lettered, trips
			 * the brake.
			 */
			private double maxRatio = DeadLetterBrakeConfig.DEFAULT_MAX_RATIO;

			/**
			 * Dead letters within a minute, per instance, above which the brake trips; 0
			 * turns this limit off.
			 */
			private int maxPerMinute = DeadLetterBrakeConfig.DEFAULT_MAX_PER_MINUTE;

			/**
			 * How long the engaged brake waits before it releases itself (doubled for
			 * each automatic release in a row, up to 8 times); 0 = only an operator
			 * releases it.
			 */
			private Duration releaseAfter = DeadLetterBrakeConfig.DEFAULT_RELEASE_AFTER;

			public boolean isEnabled() {
				return enabled;
			}

			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

			public int getWindow() {
				return window;
			}

			public void setWindow(int window) {
				this.window = window;
			}

			public double getMaxRatio() {
				return maxRatio;
			}

			public void setMaxRatio(double maxRatio) {
				this.maxRatio = maxRatio;
			}

			public int getMaxPerMinute() {
				return maxPerMinute;
			}

			public void setMaxPerMinute(int maxPerMinute) {
				this.maxPerMinute = maxPerMinute;
			}

			public Duration getReleaseAfter() {
				return releaseAfter;
			}

			public void setReleaseAfter(Duration releaseAfter) {
				this.releaseAfter = releaseAfter;
			}

		}

	}

	/**
	 * The circuit breaker around Redis that pauses consumption (no rebalance) while Redis
	 * fails or is slow.
	 */
	public static class CircuitBreaker {

		/** Whether a failing or slow Redis pauses the listener containers. */
		private boolean enabled = true;

		/**
		 * Percentage of failed round trips among the last sliding-window ones that opens
		 * the circuit.
		 */
		private float failureRateThreshold = 50;

		/** A round trip slower than this counts as slow. */
		private Duration slowCallDuration = Duration.ofSeconds(2);

		/**
		 * Percentage of slow round trips among the last sliding-window ones that opens
		 * the circuit.
		 */
		private float slowCallRateThreshold = 50;

		/** How many recent round trips the rates are computed over. */
		private int slidingWindow = 10;

		/** How long consumption stays paused before a probe batch is let through. */
		private Duration openWait = Duration.ofSeconds(5);

		public boolean isEnabled() {
			return enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public float getFailureRateThreshold() {
			return failureRateThreshold;
		}

		public void setFailureRateThreshold(float failureRateThreshold) {
			this.failureRateThreshold = failureRateThreshold;
		}

		public Duration getSlowCallDuration() {
			return slowCallDuration;
		}

		public void setSlowCallDuration(Duration slowCallDuration) {
			this.slowCallDuration = slowCallDuration;
		}

		public float getSlowCallRateThreshold() {
			return slowCallRateThreshold;
		}

		public void setSlowCallRateThreshold(float slowCallRateThreshold) {
			this.slowCallRateThreshold = slowCallRateThreshold;
		}

		public int getSlidingWindow() {
			return slidingWindow;
		}

		public void setSlidingWindow(int slidingWindow) {
			this.slidingWindow = slidingWindow;
		}

		public Duration getOpenWait() {
			return openWait;
		}

		public void setOpenWait(Duration openWait) {
			this.openWait = openWait;
		}

	}

	/**
	 * The doctor (docs/operations.md#doctor-findings): the report at start-up, at
	 * /actuator/sawmill and from the doctor command.
	 */
	public static class Doctor {

		/**
		 * Whether the doctor runs: its start-up log lines and the sawmill endpoint's
		 * report.
		 */
		private boolean enabled = true;

		/**
		 * Whether start-up logs one INFO line per finding that is not OK, and a summary
		 * line.
		 */
		private boolean startupLog = true;

		/**
		 * This pod's zone, e.g. eu-west-1a (the chart sets SAWMILL_DOCTOR_ZONE with
		 * rackAwareness.enabled).
		 */
		private @Nullable String zone;

		/** The zone of the Redis master(s); overrides redis-zone-pattern. */
		private @Nullable String redisZone;

		/**
		 * A regular expression whose first group is the zone in a Redis master's host
		 * name, e.g. 'redis-([a-z0-9-]+)\.' .
		 */
		private @Nullable String redisZonePattern;

		/**
		 * Instances of the service consuming the topics (the chart sets
		 * SAWMILL_DOCTOR_REPLICAS when autoscaling is off).
		 */
		private @Nullable Integer replicas;

		/** The directory under which proc/ and sys/ are read; '/' except in tests. */
		private String hostRoot = DoctorConfig.DEFAULT_HOST_ROOT.toString();

		/**
		 * PINGs to each Redis master per examination; the finding reports their median.
		 */
		private int pings = DoctorConfig.DEFAULT_PINGS;

		/** How long the Redis and the Kafka part of an examination may take each. */
		private Duration timeout = DoctorConfig.DEFAULT_TIMEOUT;

		/**
		 * Whether this run of the application is the doctor command: Sawmill's data path
		 * and the web server stay off, the report is printed and the application exits
		 * with 0 (no FAIL finding), 1 (a FAIL finding) or 2 (the doctor could not run).
		 */
		private boolean command;

		public boolean isEnabled() {
			return enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public boolean isStartupLog() {
			return startupLog;
		}

		public void setStartupLog(boolean startupLog) {
			this.startupLog = startupLog;
		}

		public @Nullable String getZone() {
			return zone;
		}

		public void setZone(@Nullable String zone) {
			this.zone = zone;
		}

		public @Nullable String getRedisZone() {
			return redisZone;
		}

		public void setRedisZone(@Nullable String redisZone) {
			this.redisZone = redisZone;
		}

		public @Nullable String getRedisZonePattern() {
			return redisZonePattern;
		}

		public void setRedisZonePattern(@Nullable String redisZonePattern) {
			this.redisZonePattern = redisZonePattern;
		}

		public @Nullable Integer getReplicas() {
			return replicas;
		}

		public void setReplicas(@Nullable Integer replicas) {
			this.replicas = replicas;
		}

		public String getHostRoot() {
			return hostRoot;
		}

		public void setHostRoot(String hostRoot) {
			this.hostRoot = hostRoot;
		}

		public int getPings() {
			return pings;
		}

		public void setPings(int pings) {
			this.pings = pings;
		}

		public Duration getTimeout() {
			return timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public boolean isCommand() {
			return command;
		}

		public void setCommand(boolean command) {
			this.command = command;
		}

	}

	/**
	 * Polling a batch again that was not committed, and telling when a listener makes no
	 * progress.
	 */
	public static class Redelivery {

		/**
		 * Wait before a failed batch is polled again; doubles with each consecutive
		 * failure, reset by a commit.
		 */
		private Duration initialBackoff = ListenerConfig.DEFAULT_REDELIVERY_INITIAL_BACKOFF;

		/** Longest wait before a failed batch is polled again. */
		private Duration maxBackoff = ListenerConfig.DEFAULT_REDELIVERY_MAX_BACKOFF;

		/**
		 * A consumer thread whose batches have failed without a commit for this long is
		 * reported stalled.
		 */
		private Duration stallTimeout = ListenerConfig.DEFAULT_STALL_TIMEOUT;

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

		public Duration getStallTimeout() {
			return stallTimeout;
		}

		public void setStallTimeout(Duration stallTimeout) {
			this.stallTimeout = stallTimeout;
		}

	}

	/** The pipelined Redis round trip. */
	public static class Pipeline {

		/**
		 * Most commands per flush; a batch with more goes out in several chunks awaited
		 * together.
		 */
		private int maxCommandsPerChunk = PipelineConfig.DEFAULT_MAX_COMMANDS_PER_CHUNK;

		/** How long one batch may wait for all its Redis replies. */
		private Duration timeout = PipelineConfig.DEFAULT_TIMEOUT;

		/**
		 * Keep Lettuce's hash-indexed command queue on the client of Boot's connection
		 * factory (off by default).
		 */
		private boolean hashIndexedCommandQueue = false;

		/**
		 * Keep Lettuce's per-command observations on the client of Boot's connection
		 * factory (off by default).
		 */
		private boolean commandObservations = false;

		/**
		 * Replicas that must confirm each batch (Redis WAIT, on each master it wrote to)
		 * before its offsets are committed; unset: 1 with Sentinel, and with a Cluster
		 * whose every master has a replica, else 0.
		 */
		private @Nullable Integer waitForReplicas;

		/**
		 * How long a batch waits for those replicas before it counts as a transient
		 * failure.
		 */
		private Duration replicaTimeout = PipelineConfig.DEFAULT_REPLICA_TIMEOUT;

		/**
		 * What a batch does, past the grace, for a master with fewer replicas attached
		 * than wait-for-replicas: proceed with those attached, or refuse.
		 */
		private ReplicaShortfallPolicy replicaShortfall = PipelineConfig.DEFAULT_REPLICA_SHORTFALL;

		/**
		 * How long a master short of replicas is refused before replica-shortfall
		 * decides; keep it longer than the Cluster's cluster-node-timeout.
		 */
		private Duration replicaShortfallGrace = PipelineConfig.DEFAULT_REPLICA_SHORTFALL_GRACE;

		public int getMaxCommandsPerChunk() {
			return maxCommandsPerChunk;
		}

		public void setMaxCommandsPerChunk(int maxCommandsPerChunk) {
			this.maxCommandsPerChunk = maxCommandsPerChunk;
		}

		public Duration getTimeout() {
			return timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public boolean isHashIndexedCommandQueue() {
			return hashIndexedCommandQueue;
		}

		public void setHashIndexedCommandQueue(boolean hashIndexedCommandQueue) {
			this.hashIndexedCommandQueue = hashIndexedCommandQueue;
		}

		public boolean isCommandObservations() {
			return commandObservations;
		}

		public void setCommandObservations(boolean commandObservations) {
			this.commandObservations = commandObservations;
		}

		public @Nullable Integer getWaitForReplicas() {
			return waitForReplicas;
		}

		public void setWaitForReplicas(@Nullable Integer waitForReplicas) {
			this.waitForReplicas = waitForReplicas;
		}

		public Duration getReplicaTimeout() {
			return replicaTimeout;
		}

		public void setReplicaTimeout(Duration replicaTimeout) {
			this.replicaTimeout = replicaTimeout;
		}

		public ReplicaShortfallPolicy getReplicaShortfall() {
			return replicaShortfall;
		}

		public void setReplicaShortfall(ReplicaShortfallPolicy replicaShortfall) {
			this.replicaShortfall = replicaShortfall;
		}

		public Duration getReplicaShortfallGrace() {
			return replicaShortfallGrace;
		}

		public void setReplicaShortfallGrace(Duration replicaShortfallGrace) {
			this.replicaShortfallGrace = replicaShortfallGrace;
		}

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

	/** Sawmill's own metrics ({@code sawmill.metrics.*}). */
	public static class Metrics {

		/**
		 * How often lag per partition is read from Kafka between scrapes; a scrape reads
		 * this instance's lag again when the last read is over a second old.
		 */
		private Duration lagInterval = Duration.ofSeconds(15);

		/**
		 * Extra histogram buckets (SLOs) of sawmill.batch.duration and
		 * sawmill.redis.pipeline.duration, e.g. 200ms,1s.
		 */
		private List<Duration> sloBuckets = new ArrayList<>();

		/**
		 * How often Redis is PINGed on the writing path's client for sawmill.redis.rtt.
		 */
		private Duration rttInterval = Duration.ofSeconds(5);

		/**
		 * Whether to publish CFS throttling from the container's cgroup cpu.stat, when
		 * the file exists.
		 */
		private boolean cpuThrottling = true;

		/**
		 * Whether to publish sawmill.group.lag.records: the group's lag on every
		 * partition of its topics, read every lag-interval.
		 */
		private boolean groupLag = true;

		private final Summary summary = new Summary();

		public Duration getLagInterval() {
			return lagInterval;
		}

		public void setLagInterval(Duration lagInterval) {
			this.lagInterval = lagInterval;
		}

		public List<Duration> getSloBuckets() {
			return sloBuckets;
		}

		public void setSloBuckets(List<Duration> sloBuckets) {
			this.sloBuckets = sloBuckets;
		}

		public Duration getRttInterval() {
			return rttInterval;
		}

		public void setRttInterval(Duration rttInterval) {
			this.rttInterval = rttInterval;
		}

		public boolean isCpuThrottling() {
			return cpuThrottling;
		}

		public void setCpuThrottling(boolean cpuThrottling) {
			this.cpuThrottling = cpuThrottling;
		}

		public boolean isGroupLag() {
			return groupLag;
		}

		public void setGroupLag(boolean groupLag) {
			this.groupLag = groupLag;
		}

		public Summary getSummary() {
			return summary;
		}

		/** The periodic one-line INFO summary (records/s, lag, batch P99, Redis RTT). */
		public static class Summary {

			/** Whether to log the summary line. */
			private boolean enabled = true;

			/** How often to log it. */
			private Duration interval = Duration.ofMinutes(1);

			public boolean isEnabled() {
				return enabled;
			}

			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

			public Duration getInterval() {
				return interval;
			}

			public void setInterval(Duration interval) {
				this.interval = interval;
			}

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
