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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.sawmill.mapping.RecordMappingException;

class WireFormatTests {

	@Test
	void shouldReadTheSchemaIdBigEndianAfterTheMagicByte() {
		WireFormat framed = WireFormat.read(new byte[] { 0, 0, 1, 0, 2, 'x' }, SchemaFormat.AVRO);
		assertThat(framed.schemaId()).isEqualTo(65_538);
		assertThat(framed.messageIndexes()).isEmpty();
		assertThat(framed.payloadOffset()).isEqualTo(5);
	}

	@Test
	void shouldReadACountOfZeroAsTheFirstProtobufMessage() {
		WireFormat framed = WireFormat.read(new byte[] { 0, 0, 0, 0, 7, 0, 'x' }, SchemaFormat.PROTOBUF);
		assertThat(framed.messageIndexes()).containsExactly(0);
		assertThat(framed.payloadOffset()).isEqualTo(6);
	}

	@Test
	void shouldReadNestedProtobufMessageIndexesAsZigZagVarints() {
		// count 2, then 1 and 200 (zig-zag: 2, and 400 = 0x90 0x03)
		WireFormat framed = WireFormat.read(new byte[] { 0, 0, 0, 0, 7, 4, 2, (byte) 0x90, 0x03, 'x' },
				SchemaFormat.PROTOBUF);
		assertThat(framed.messageIndexes()).containsExactly(1, 200);
		assertThat(framed.payloadOffset()).isEqualTo(9);
	}

	@Test
	void shouldRejectBytesWithoutTheMagicByteOrTooShortToHoldAnId() {
		assertThatThrownBy(() -> WireFormat.read("{\"a\":1}".getBytes(), SchemaFormat.JSON_SCHEMA))
			.isInstanceOf(RecordMappingException.class)
			.hasMessageContaining("not in a schema registry's wire format")
			.hasMessageContaining("the first byte is 123");
		assertThatThrownBy(() -> WireFormat.read(new byte[] { 0, 0, 1 }, SchemaFormat.AVRO))
			.isInstanceOf(RecordMappingException.class)
			.hasMessageContaining("3 bytes");
	}

	@Test
	void shouldRejectProtobufMessageIndexesThatEndBeforeThePayload() {
		assertThatThrownBy(() -> WireFormat.read(new byte[] { 0, 0, 0, 0, 7, 4, 2 }, SchemaFormat.PROTOBUF))
			.isInstanceOf(RecordMappingException.class)
			.hasMessageContaining("message indexes end before the payload");
	}

}
