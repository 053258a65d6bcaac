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

import io.sawmill.mapping.RecordMappingException;

/**
 * The Confluent wire format: magic byte 0, the schema id as a 4-byte big-endian int, for
 * Protobuf the message indexes (a zig-zag varint count, then as many zig-zag varint
 * indexes; a count of 0 means the first message), then the payload.
 *
 * @param schemaId the registry's id of the writer's schema
 * @param messageIndexes the path to a Protobuf message (top-level index, then nested),
 * empty for other formats
 * @param payloadOffset where the encoded data starts
 */
record WireFormat(int schemaId, int[] messageIndexes, int payloadOffset) {

	private static final int[] FIRST_MESSAGE = { 0 };

	private static final int HEADER = 5;

	/**
	 * @throws RecordMappingException when {@code bytes} are not framed so
	 */
	static WireFormat read(byte[] bytes, SchemaFormat format) {
		if (bytes.length < HEADER || bytes[0] != 0) {
			throw new RecordMappingException("not in a schema registry's wire format (magic byte 0 and a 4-byte "
					+ "schema id, then the payload): "
					+ (bytes.length < HEADER ? bytes.length + " bytes" : "the first byte is " + (bytes[0] & 0xFF)));
		}
		int id = ((bytes[1] & 0xFF) << 24) | ((bytes[2] & 0xFF) << 16) | ((bytes[3] & 0xFF) << 8) | (bytes[4] & 0xFF);
		if (format != SchemaFormat.PROTOBUF) {
			return new WireFormat(id, new int[0], HEADER);
		}
		int[] position = { HEADER };
		int count = readVarint(bytes, position);
		if (count == 0) {
			return new WireFormat(id, FIRST_MESSAGE, position[0]);
		}
		if (count < 0 || count > bytes.length) {
			throw new RecordMappingException("schema id " + id + ": invalid Protobuf message index count " + count);
		}
		int[] indexes = new int[count];
		for (int i = 0; i < count; i++) {
			indexes[i] = readVarint(bytes, position);
		}
		return new WireFormat(id, indexes, position[0]);
	}

	/** A zig-zag varint (Kafka's {@code ByteUtils.readVarint}), advancing position. */
	private static int readVarint(byte[] bytes, int[] position) {
		int raw = 0;
		for (int shift = 0; shift < 32; shift += 7) {
			if (position[0] >= bytes.length) {
				throw new RecordMappingException("Protobuf message indexes end before the payload");
			}
			byte b = bytes[position[0]++];
			raw |= (b & 0x7F) << shift;
			if ((b & 0x80) == 0) {
				return (raw >>> 1) ^ -(raw & 1);
			}
		}
		throw new RecordMappingException("Protobuf message indexes hold a varint longer than 5 bytes");
	}

}
