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
package io.sawmill.mapping.route.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.DynamicMessage;

import io.apicurio.registry.utils.protobuf.schema.FileDescriptorUtils;
import io.sawmill.mapping.MappingUnavailableException;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.registry.internal.SchemaRegistryConfig;
import io.sawmill.mapping.route.KeyFormat;
import io.sawmill.mapping.route.RedisType;
import io.sawmill.mapping.route.ValueFormat;

/**
 * Protobuf messages and Jackson 2 trees map to fields like Avro records and Jackson 3
 * trees; registry formats need a registry, and one that cannot be reached fails the
 * record as unavailable, never as invalid.
 */
class RegistryRoutesTests {

	private static final String PROTO = """
			syntax = "proto3";
			package t;
			message Order {
			  string id = 1;
			  uint64 amount = 2;
			  Status status = 3;
			  repeated string tags = 4;
			  Address address = 5;
			  optional string coupon = 6;
			  map<string, int32> counts = 7;
			  bytes raw = 8;
			  enum Status { NEW = 0; PAID = 1; }
			  message Address { string city = 1; }
			}
			""";

	private static Routes routes(String topic, UnaryOperator<RouteConfig.Builder> options) {
		return Routes.of(List.of(options
			.apply(RouteConfig.custom(topic).topics(List.of(topic)).type(RedisType.HASH).keyTemplate(topic + ":{@key}"))
			.build()));
	}

	private static ConsumerRecord<byte[], byte[]> record(String topic, String key, byte[] value) {
		return new ConsumerRecord<>(topic, 0, 7L, key.getBytes(UTF_8), value);
	}

	private static Map<String, String> fields(List<RedisWrite> writes) {
		assertThat(writes).hasSize(1).first().isInstanceOf(RedisWrite.HashSet.class);
		Map<String, String> fields = new java.util.TreeMap<>();
		((RedisWrite.HashSet) writes.get(0)).fields()
			.forEach((f, v) -> fields.put(new String(f, UTF_8), new String(v, UTF_8)));
		return fields;
	}

	@Test
	void aDeserializersProtobufMessageIsMappedLikeAnAvroRecord() {
		Routes routes = routes("p",
				b -> b.valueFormat(ValueFormat.DESERIALIZER).valueDeserializer(OrderDeserializer.class.getName()));
		assertThat(fields(routes.map(record("p", "1", "o1".getBytes(UTF_8)))))
			.containsExactlyInAnyOrderEntriesOf(Map.of("id", "o1", "amount", "18446744073709551615", "status", "PAID",
					"tags", "[\"a\",\"b\"]", "address.city", "Oslo", "counts.x", "2", "raw", "AQI="));
	}

	@Test
	void aDeserializersJackson2TreeIsMappedLikeAJackson3One() {
		Routes routes = routes("j",
				b -> b.valueFormat(ValueFormat.DESERIALIZER).valueDeserializer(Jackson2Deserializer.class.getName()));
		assertThat(fields(
				routes.map(record("j", "1", "{\"name\":\"Ann\",\"address\":{\"city\":\"Oslo\"}}".getBytes(UTF_8)))))
			.containsExactlyInAnyOrderEntriesOf(Map.of("name", "Ann", "address.city", "Oslo"));
	}

	@Test
	void registryFormatsNeedASchemaRegistryAndARegistryIsReadOnlyByThem() {
		SchemaRegistryConfig registry = SchemaRegistryConfig.custom("http://registry:8081").build();
		assertThatIllegalArgumentException().isThrownBy(() -> routes("p", b -> b.valueFormat(ValueFormat.PROTOBUF)))
			.withMessageStartingWith("route 'p': schema-registry.url must be set for value-format PROTOBUF");
		assertThatIllegalArgumentException().isThrownBy(() -> routes("k", b -> b.keyFormat(KeyFormat.AVRO)))
			.withMessageStartingWith("route 'k': schema-registry.url must be set for key-format AVRO");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> routes("a",
					b -> b.valueFormat(ValueFormat.AVRO).avroSchema("\"string\"").schemaRegistry(registry)))
			.withMessageStartingWith("route 'a': avro-schema or schema-registry.url must be set for value-format AVRO, "
					+ "one of the two");
		assertThatIllegalArgumentException().isThrownBy(() -> routes("a", b -> b.valueFormat(ValueFormat.AVRO)))
			.withMessageStartingWith("route 'a': avro-schema or schema-registry.url must be set");
		assertThatIllegalArgumentException().isThrownBy(() -> routes("j", b -> b.schemaRegistry(registry)))
			.withMessage("route 'j': schema-registry.url is read only by value-format AVRO (without avro-schema), "
					+ "PROTOBUF or JSON_SCHEMA, or a key-format other than RAW; this route's value-format is JSON, "
					+ "but was 'http://registry:8081'");
	}

	@Test
	void aRegistryThatCannotBeReachedLeavesTheRecordUnmappedButNotInvalid() throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		SchemaRegistryConfig registry = SchemaRegistryConfig.custom("http://127.0.0.1:" + closedPort).build();
		Routes values = routes("v", b -> b.valueFormat(ValueFormat.JSON_SCHEMA).schemaRegistry(registry));
		assertThatThrownBy(() -> values.map(record("v", "1", new byte[] { 0, 0, 0, 0, 3, '{', '}' })))
			.isInstanceOf(MappingUnavailableException.class);
		Routes keys = routes("k", b -> b.keyFormat(KeyFormat.AVRO).schemaRegistry(registry));
		ConsumerRecord<byte[], byte[]> framedKey = new ConsumerRecord<>("k", 0, 7L,
				new byte[] { 0, 0, 0, 0, 4, 2, 'x' }, "{\"a\":1}".getBytes(UTF_8));
		assertThatThrownBy(() -> keys.map(framedKey)).isInstanceOf(MappingUnavailableException.class);
	}

	/** An order as a Protobuf DynamicMessage, as a Protobuf deserializer returns it. */
	public static final class OrderDeserializer implements Deserializer<DynamicMessage> {

		@Override
		public DynamicMessage deserialize(String topic, byte[] data) {
			Descriptor order;
			try {
				order = FileDescriptorUtils.protoFileToFileDescriptor(PROTO, "order.proto", Optional.empty())
					.findMessageTypeByName("Order");
			}
			catch (DescriptorValidationException ex) {
				throw new IllegalStateException(ex);
			}
			Descriptor address = order.findNestedTypeByName("Address");
			Descriptor entry = order.findFieldByName("counts").getMessageType();
			return DynamicMessage.newBuilder(order)
				.setField(order.findFieldByName("id"), new String(data, UTF_8))
				.setField(order.findFieldByName("amount"), -1L)
				.setField(order.findFieldByName("status"), order.findEnumTypeByName("Status").findValueByName("PAID"))
				.addRepeatedField(order.findFieldByName("tags"), "a")
				.addRepeatedField(order.findFieldByName("tags"), "b")
				.setField(order.findFieldByName("address"),
						DynamicMessage.newBuilder(address).setField(address.findFieldByName("city"), "Oslo").build())
				.addRepeatedField(order.findFieldByName("counts"),
						DynamicMessage.newBuilder(entry)
							.setField(entry.findFieldByName("key"), "x")
							.setField(entry.findFieldByName("value"), 2)
							.build())
				.setField(order.findFieldByName("raw"), com.google.protobuf.ByteString.copyFrom(new byte[] { 1, 2 }))
				.build();
		}

	}

	/** A JSON value as a Jackson 2 tree, as many deserializers still return it. */
	public static final class Jackson2Deserializer implements Deserializer<com.fasterxml.jackson.databind.JsonNode> {

		@Override
		public com.fasterxml.jackson.databind.JsonNode deserialize(String topic, byte[] data) {
			try {
				return new com.fasterxml.jackson.databind.ObjectMapper().readTree(data);
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
