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
package io.sawmill.mapping.registry.internal;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.sawmill.mapping.MappingUnavailableException;
import io.sawmill.mapping.RecordMappingException;

/**
 * What does not need a registry to answer: a registry that cannot be reached, and bytes
 * that are not framed (refused before any lookup). Answers of a real registry are covered
 * by src-it's RegistryFormatsIT.
 */
class SchemaRegistryTests {

	@Test
	void shouldTreatARegistryThatRefusesTheConnectionAsUnavailableNotAsTheRecordsFault() throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		SchemaRegistry registry = SchemaRegistry.of(SchemaRegistryConfig.custom("http://127.0.0.1:" + closedPort)
			.requestTimeout(Duration.ofSeconds(2))
			.build());
		assertThatThrownBy(() -> registry.read(SchemaFormat.AVRO, new byte[] { 0, 0, 0, 0, 42, 2, 'x' }))
			.isInstanceOf(MappingUnavailableException.class)
			.hasMessageStartingWith(
					"schema id 42 cannot be fetched from the schema registry http://127.0.0.1:" + closedPort);
	}

	@Test
	void shouldRejectUnframedBytesWithoutAskingTheRegistry() {
		SchemaRegistry registry = SchemaRegistry.of(SchemaRegistryConfig.custom("http://127.0.0.1:1").build());
		assertThatThrownBy(() -> registry.read(SchemaFormat.PROTOBUF, "plain".getBytes()))
			.isInstanceOf(RecordMappingException.class)
			.hasMessageContaining("not in a schema registry's wire format");
	}

}
