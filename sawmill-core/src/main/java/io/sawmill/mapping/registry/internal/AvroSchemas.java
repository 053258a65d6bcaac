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

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

import io.sawmill.mapping.RecordMappingException;

/** Avro's side of {@link SchemaRegistry}, apart so that only Avro routes load Avro. */
final class AvroSchemas {

	private AvroSchemas() {
	}

	static Object parse(String text) {
		return new Schema.Parser().parse(text);
	}

	/** The datum of the whole payload, read with the writer's schema. */
	static Object read(Object schema, byte[] bytes, int offset) {
		Schema writer = (Schema) schema;
		BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, offset, bytes.length - offset, null);
		try {
			Object datum = new GenericDatumReader<>(writer).read(null, decoder);
			if (!decoder.isEnd()) {
				throw new RecordMappingException(
						"payload is not Avro of schema " + writer.getFullName() + ": bytes are left after the datum");
			}
			return datum;
		}
		catch (IOException | RuntimeException ex) {
			if (ex instanceof RecordMappingException mapping) {
				throw mapping;
			}
			throw new RecordMappingException("payload is not Avro of schema " + writer.getFullName() + ": " + ex, ex);
		}
	}

}
