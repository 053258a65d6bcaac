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
package io.sawmill.it.formats;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.DynamicMessage;

import io.apicurio.registry.utils.protobuf.schema.FileDescriptorUtils;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.deadletter.internal.KafkaDeadLetterPublisher;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.it.support.SchemaRegistryServer;

/**
 * Routes reading registry-framed Avro, Protobuf and JSON Schema values (and an
 * Avro-framed key) by configuration only, against a real broker, redis-server and schema
 * registry (Apicurio Registry, through its Confluent-compatible API), with the schemas
 * registered there as a producer's serializer would: every record's hash in Redis, a new
 * optional field mid-stream, the dead letters of records whose schema is unknown or that
 * are not framed, and a registry outage, during which records wait, none is
 * dead-lettered, and all are written once it is back. One registry, broker, Redis and
 * Sawmill service for the class.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegistryFormatsIT {

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic("users", 1).andTopic("orders", 1).andTopic("stock", 1);

	private static final String USER_V1 = """
			{"type":"record","name":"User","namespace":"it","fields":[
			  {"name":"id","type":"string"},{"name":"name","type":"string"}]}""";

	private static final String USER_V2 = """
			{"type":"record","name":"User","namespace":"it","fields":[
			  {"name":"id","type":"string"},{"name":"name","type":"string"},
			  {"name":"tier","type":["null","string"],"default":null}]}""";

	private static final String USER_V3 = """
			{"type":"record","name":"User","namespace":"it","fields":[
			  {"name":"id","type":"string"},{"name":"name","type":"string"},
			  {"name":"tier","type":["null","string"],"default":null},
			  {"name":"plan","type":["null","string"],"default":null}]}""";

	/** Order is the second message of the file: its records carry message index 1. */
	private static final String ORDER_V1 = """
			syntax = "proto3";
			package it;
			message Header { string source = 1; }
			message Order {
			  string id = 1;
			  int64 amount = 2;
			  Status status = 3;
			  repeated string tags = 4;
			  enum Status { NEW = 0; PAID = 1; }
			}
			""";

	private static final String ORDER_V2 = ORDER_V1.replace("repeated string tags = 4;",
			"repeated string tags = 4;\n  optional string coupon = 5;");

	private static final String STOCK_V1 = """
			{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer"}}}""";

	private static final String STOCK_V2 = """
			{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer"},
			 "note":{"type":"string"}}}""";

	/**
	 * Started while the broker and Redis start (the registry takes the longest), joined
	 * in {@link #start()}.
	 */
	private static final CompletableFuture<SchemaRegistryServer> starting = CompletableFuture
		.supplyAsync(SchemaRegistryServer::start);

	private static SchemaRegistryServer registry;

	private static ConfigurableApplicationContext app;

	private static RedisClient client;

	private static StatefulRedisConnection<String, String> connection;

	private static RedisCommands<String, String> redis;

	@BeforeAll
	static void start() {
		registry = starting.join();
		client = RedisClient.create("redis://" + servers.redis().host() + ":" + servers.redis().port());
		connection = client.connect();
		redis = connection.sync();
		Map<String, Object> properties = SawmillApp.baseProperties(servers, "unused", "registry-formats");
		properties.remove("sawmill.topics");
		properties.remove("sawmill.mapping.key-template");
		properties.remove("sawmill.mapping.ttl");
		properties.put("sawmill.redelivery.max-backoff", "1s");
		route(properties, 0, "users", "user:{@key}", "value-format", "AVRO");
		route(properties, 1, "orders", "order:{id}", "value-format", "PROTOBUF");
		route(properties, 2, "stock", "stock:{@key}", "value-format", "JSON_SCHEMA", "key-format", "AVRO");
		app = SawmillApp.run(properties);
	}

	@AfterAll
	static void stop() {
		if (app != null) {
			app.close();
		}
		if (connection != null) {
			connection.close();
			client.shutdown();
		}
		// also when start() never ran: the registry's process must not outlive the class
		starting.thenAccept(SchemaRegistryServer::close).exceptionally(failedToStart -> null).join();
	}

	@Test
	@Order(1)
	void shouldWriteRegistryAvroRecordsAndReadANewOptionalFieldMidStreamAndDeadLetterUnknownSchemas() {
		int v1 = registry.register("users-value", "AVRO", USER_V1);
		int v2 = registry.register("users-value", "AVRO", USER_V2);
		assertThat(v2).isNotEqualTo(v1);
		produce("users", "u1", avro(v1, USER_V1, Map.of("id", "u1", "name", "Ann")));
		produce("users", "u2", avro(v2, USER_V2, Map.of("id", "u2", "name", "Bob", "tier", "gold")));
		produce("users", "u3", avro(v2, USER_V2, Map.of("id", "u3", "name", "Cy")));
		produce("users", "bad-unknown-id", framed(987_654, new byte[] { 2, 'x' }));
		produce("users", "bad-unframed", "{\"id\":\"u9\"}".getBytes(UTF_8));

		awaitHash("user:u1", Map.of("id", "u1", "name", "Ann"));
		awaitHash("user:u2", Map.of("id", "u2", "name", "Bob", "tier", "gold"));
		awaitHash("user:u3", Map.of("id", "u3", "name", "Cy"));
		List<ConsumerRecord<byte[], byte[]>> letters = Kafka.readAll(servers.kafka().bootstrapServers(), "users.DLT",
				2);
		assertThat(letters).extracting(letter -> new String(letter.key(), UTF_8))
			.containsExactly("bad-unknown-id", "bad-unframed");
		assertThat(reason(letters.get(0))).contains("schema id 987654 is not in the schema registry");
		assertThat(reason(letters.get(1))).contains("not in a schema registry's wire format");
	}

	@Test
	@Order(2)
	void shouldWriteRegistryProtobufMessagesByTheirMessageIndexesAndReadANewOptionalFieldMidStream()
			throws DescriptorValidationException {
		int v1 = registry.register("orders-value", "PROTOBUF", ORDER_V1);
		int v2 = registry.register("orders-value", "PROTOBUF", ORDER_V2);
		Descriptor order1 = order(ORDER_V1);
		Descriptor order2 = order(ORDER_V2);
		produce("orders", "o1", protobuf(v1, DynamicMessage.newBuilder(order1)
			.setField(order1.findFieldByName("id"), "o1")
			.setField(order1.findFieldByName("amount"), 1250L)
			.setField(order1.findFieldByName("status"), order1.findEnumTypeByName("Status").findValueByName("PAID"))
			.addRepeatedField(order1.findFieldByName("tags"), "gift")
			.build()));
		produce("orders", "o2",
				protobuf(v2,
						DynamicMessage.newBuilder(order2)
							.setField(order2.findFieldByName("id"), "o2")
							.setField(order2.findFieldByName("amount"), 99L)
							.setField(order2.findFieldByName("coupon"), "SPRING")
							.build()));

		awaitHash("order:o1", Map.of("id", "o1", "amount", "1250", "status", "PAID", "tags", "[\"gift\"]"));
		awaitHash("order:o2", Map.of("id", "o2", "amount", "99", "status", "NEW", "tags", "[]", "coupon", "SPRING"));
	}

	@Test
	@Order(3)
	void shouldWriteRegistryJsonSchemaValuesUnderRegistryAvroKeysAndReadANewFieldMidStream() {
		int key = registry.register("stock-key", "AVRO", "\"string\"");
		int v1 = registry.register("stock-value", "JSON", STOCK_V1);
		int v2 = registry.register("stock-value", "JSON", STOCK_V2);
		produce("stock", avro(key, "\"string\"", "sku-1"), framed(v1, "{\"sku\":\"sku-1\",\"qty\":3}".getBytes(UTF_8)));
		produce("stock", avro(key, "\"string\"", "sku-2"),
				framed(v2, "{\"sku\":\"sku-2\",\"qty\":0,\"note\":\"recall\"}".getBytes(UTF_8)));

		awaitHash("stock:sku-1", Map.of("sku", "sku-1", "qty", "3"));
		awaitHash("stock:sku-2", Map.of("sku", "sku-2", "qty", "0", "note", "recall"));
	}

	@Test
	@Order(4)
	void shouldHoldRecordsWhileTheRegistryIsDownAndWriteThemOnceItIsBackWithoutDeadLetteringAny() {
		// a schema no record has carried yet, so no route has it cached
		int v3 = registry.register("users-value", "AVRO", USER_V3);
		double retriedBefore = retried("users");
		registry.stop();
		produce("users", "u10", avro(v3, USER_V3, Map.of("id", "u10", "name", "Dee", "plan", "pro")));
		produce("users", "u11", avro(v3, USER_V3, Map.of("id", "u11", "name", "Eve")));

		await().atMost(Duration.ofSeconds(60)).until(() -> retried("users") > retriedBefore);
		assertThat(redis.exists("user:u10", "user:u11")).isZero();
		registry.restart();

		awaitHash("user:u10", Map.of("id", "u10", "name", "Dee", "plan", "pro"));
		awaitHash("user:u11", Map.of("id", "u11", "name", "Eve"));
		assertThat(Kafka.readAll(servers.kafka().bootstrapServers(), "users.DLT", 2))
			.extracting(letter -> new String(letter.key(), UTF_8))
			.containsExactly("bad-unknown-id", "bad-unframed");
	}

	private static void route(Map<String, Object> properties, int index, String topic, String keyTemplate,
			String... options) {
		String prefix = "sawmill.routes[" + index + "].";
		properties.put(prefix + "name", topic);
		properties.put(prefix + "topics", topic);
		properties.put(prefix + "type", "HASH");
		properties.put(prefix + "key-template", keyTemplate);
		properties.put(prefix + "dead-letter-topic", topic + ".DLT");
		properties.put(prefix + "schema-registry.url", registry.url());
		properties.put(prefix + "schema-registry.request-timeout", "2s");
		for (int i = 0; i < options.length; i += 2) {
			properties.put(prefix + options[i], options[i + 1]);
		}
	}

	private static void awaitHash(String key, Map<String, String> fields) {
		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.untilAsserted(() -> assertThat(redis.hgetall(key)).isEqualTo(fields));
	}

	private static double retried(String topic) {
		MeterRegistry meters = app.getBean(MeterRegistry.class);
		return meters.find("sawmill.records")
			.tag("topic", topic)
			.tag("outcome", "retried")
			.counters()
			.stream()
			.mapToDouble(c -> c.count())
			.sum();
	}

	private static String reason(ConsumerRecord<byte[], byte[]> letter) {
		return new String(letter.headers().lastHeader(KafkaDeadLetterPublisher.REASON_HEADER).value(), UTF_8);
	}

	private static void produce(String topic, String key, byte[] value) {
		produce(topic, key.getBytes(UTF_8), value);
	}

	private static void produce(String topic, byte[] key, byte[] value) {
		Kafka.produceOne(servers.kafka().bootstrapServers(), topic, key, value);
	}

	/** The Confluent wire format: magic byte 0, the schema id, the payload. */
	private static byte[] framed(int schemaId, byte[] payload) {
		return ByteBuffer.allocate(5 + payload.length).put((byte) 0).putInt(schemaId).put(payload).array();
	}

	/**
	 * A datum of {@code schema}: a record of {@code fields} (absent ones null), or a
	 * value.
	 */
	private static byte[] avro(int schemaId, String schema, Object datum) {
		Schema parsed = new Schema.Parser().parse(schema);
		Object value = datum;
		if (datum instanceof Map<?, ?> fields) {
			GenericData.Record record = new GenericData.Record(parsed);
			fields.forEach((name, field) -> record.put((String) name, field));
			value = record;
		}
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
		try {
			new GenericDatumWriter<>(parsed).write(value, encoder);
			encoder.flush();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return framed(schemaId, out.toByteArray());
	}

	/**
	 * A message of the schema's second message type: message indexes [1], written as
	 * Confluent's serializer does (zig-zag varints: count 1, index 1).
	 */
	private static byte[] protobuf(int schemaId, DynamicMessage message) {
		byte[] payload = message.toByteArray();
		byte[] indexed = new byte[payload.length + 2];
		indexed[0] = 2;
		indexed[1] = 2;
		System.arraycopy(payload, 0, indexed, 2, payload.length);
		return framed(schemaId, indexed);
	}

	private static Descriptor order(String proto) throws DescriptorValidationException {
		return FileDescriptorUtils.protoFileToFileDescriptor(proto, "order.proto", Optional.empty())
			.findMessageTypeByName("Order");
	}

}
