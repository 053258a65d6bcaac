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

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.registry.internal.SchemaRegistryConfig;
import io.sawmill.mapping.route.KeyFormat;
import io.sawmill.mapping.route.RedisType;
import io.sawmill.mapping.route.ValueFormat;

/**
 * Routes on a class path without Apache Avro, as an application that never declared the
 * optional dependency has: surefire's {@code without-avro} execution runs this class with
 * {@code org.apache.avro:avro} removed from the test class path; the default execution
 * skips its tag.
 */
@Tag("without-avro")
class RoutesWithoutAvroTests {

	private static Routes routes(String topic, RedisType type, String keyTemplate,
			UnaryOperator<RouteConfig.Builder> options) {
		return Routes.of(List
			.of(options.apply(RouteConfig.custom(topic).topics(List.of(topic)).type(type).keyTemplate(keyTemplate))
				.build()));
	}

	private static ConsumerRecord<byte[], byte[]> record(String topic, String key, String value) {
		return new ConsumerRecord<>(topic, 0, 7L, key.getBytes(UTF_8), value == null ? null : value.getBytes(UTF_8));
	}

	@Test
	void shouldRunWithoutAvroOnTheClassPath() {
		assertThatThrownBy(() -> Class.forName("org.apache.avro.generic.GenericRecord"))
			.as("this class must run with Avro removed from the class path (surefire execution without-avro)")
			.isInstanceOf(ClassNotFoundException.class);
	}

	@Test
	void shouldMapJsonAndStringRoutesWithoutAvro() {
		Routes routes = Routes.of(List.of(
				RouteConfig.custom("users")
					.topics(List.of("users"))
					.type(RedisType.HASH)
					.keyTemplate("user:{@key}")
					.ttl(Duration.ofMinutes(1))
					.build(),
				RouteConfig.custom("tags")
					.topics(List.of("tags"))
					.type(RedisType.SET)
					.keyTemplate("tags:{@topic}")
					.member("{@key}")
					.valueFormat(ValueFormat.STRING)
					.build()));
		assertThat(routes.map(record("users", "1", "{\"name\":\"Ann\"}")))
			.hasOnlyElementsOfTypes(RedisWrite.HashSet.class, RedisWrite.Expire.class)
			.hasSize(2);
		assertThat(routes.map(record("users", "1", null))).singleElement().isInstanceOf(RedisWrite.Delete.class);
		assertThat(routes.map(record("tags", "t1", "not json"))).singleElement().isInstanceOf(RedisWrite.Command.class);
	}

	@Test
	void shouldRefuseAnAvroRouteAtStartUpNamingTheMissingDependency() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> routes("p", RedisType.HASH, "p:{@key}",
					b -> b.valueFormat(ValueFormat.AVRO)
						.avroSchema("{\"type\":\"record\",\"name\":\"P\",\"fields\":[]}")))
			.withMessageContaining("route 'p'")
			.withMessageContaining("org.apache.avro:avro");
	}

	@Test
	void shouldRefuseARegistryAvroRouteOrKeyAtStartUpNamingTheMissingDependency() {
		SchemaRegistryConfig registry = SchemaRegistryConfig.custom("http://registry:8081").build();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> routes("r", RedisType.HASH, "r:{@key}",
					b -> b.valueFormat(ValueFormat.AVRO).schemaRegistry(registry)))
			.withMessage("route 'r': value-format AVRO needs org.apache.avro:avro on the class path");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> routes("k", RedisType.HASH, "k:{@key}",
					b -> b.keyFormat(KeyFormat.AVRO).schemaRegistry(registry)))
			.withMessage("route 'k': key-format AVRO needs org.apache.avro:avro on the class path");
	}

}
