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

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;

import io.apicurio.registry.utils.protobuf.schema.FileDescriptorUtils;
import io.sawmill.mapping.RecordMappingException;

/**
 * Protobuf's side of {@link SchemaRegistry}, apart so that only Protobuf routes load
 * protobuf-java and the {@code .proto} parser.
 */
final class ProtobufSchemas {

	private ProtobufSchemas() {
	}

	/** The file descriptor of a registry's {@code .proto} text. */
	static Object parse(int id, String text) {
		try {
			return FileDescriptorUtils.protoFileToFileDescriptor(text, "schema-" + id + ".proto", Optional.empty());
		}
		catch (DescriptorValidationException ex) {
			throw new IllegalArgumentException(ex.getMessage(), ex);
		}
	}

	static Object read(Object schema, int[] messageIndexes, byte[] bytes, int offset) {
		Descriptor message = message((FileDescriptor) schema, messageIndexes);
		try {
			return DynamicMessage.parseFrom(message,
					CodedInputStream.newInstance(bytes, offset, bytes.length - offset));
		}
		catch (IOException ex) { // InvalidProtocolBufferException, the only one a byte
									// array throws
			throw new RecordMappingException(
					"payload is not Protobuf of message " + message.getFullName() + ": " + ex.getMessage(), ex);
		}
	}

	/** The message the indexes name: a top-level message, then nested ones. */
	private static Descriptor message(FileDescriptor file, int[] indexes) {
		List<Descriptor> candidates = file.getMessageTypes();
		Descriptor message = null;
		for (int index : indexes) {
			if (index < 0 || index >= candidates.size()) {
				throw new RecordMappingException("Protobuf message index " + index + " is not in schema "
						+ file.getName() + ", which has " + candidates.size() + " message(s) there");
			}
			message = candidates.get(index);
			candidates = message.getNestedTypes();
		}
		if (message == null) {
			throw new RecordMappingException("no Protobuf message index");
		}
		return message;
	}

}
