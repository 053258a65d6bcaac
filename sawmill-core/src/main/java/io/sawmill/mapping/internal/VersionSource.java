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
package io.sawmill.mapping.internal;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;
import org.jspecify.annotations.Nullable;

import io.sawmill.mapping.RecordMappingException;

/**
 * Where a record's version comes from ({@code sawmill.mapping.version}):
 * {@code timestamp}, the Kafka record's timestamp in epoch milliseconds, or
 * {@code field:<path>}, a field of the JSON value (a dot path reaches a nested one). A
 * field holds either a non-negative integer (any unit; versions of one key must share it)
 * or an ISO-8601 instant such as {@code 2024-05-01T12:00:00Z}, read as epoch
 * milliseconds. A tombstone has no value: with {@code field:<path>} its version is read
 * from the Kafka header named {@code <path>}, in the same forms.
 * <p>
 * A record whose version cannot be read is rejected ({@link RecordMappingException}, so
 * it is dead-lettered with the reason). Immutable.
 */
public final class VersionSource {

	private static final String TIMESTAMP = "timestamp";

	private static final String FIELD = "field:";

	/** The field's path, or null for the record timestamp. */
	private final @Nullable String path;

	private final String source;

	private VersionSource(String source, @Nullable String path) {
		this.source = source;
		this.path = path;
	}

	/**
	 * @param source {@code timestamp} or {@code field:<path>}
	 * @throws IllegalArgumentException naming the value when it is neither
	 */
	public static VersionSource parse(@Nullable String source) {
		if (source != null) {
			if (TIMESTAMP.equals(source)) {
				return new VersionSource(source, null);
			}
			if (source.startsWith(FIELD) && !source.substring(FIELD.length()).isBlank()) {
				return new VersionSource(source, source.substring(FIELD.length()).strip());
			}
		}
		throw new IllegalArgumentException(
				"version must be 'timestamp' or 'field:<json field>' (e.g. 'field:updatedAt'), but was '" + source
						+ "'");
	}

	/** As configured, e.g. {@code field:updatedAt}. */
	public String source() {
		return source;
	}

	/**
	 * The record's version.
	 * @param fields the record's flattened value; null for a tombstone
	 * @throws RecordMappingException when the record has no readable version
	 */
	public long of(ConsumerRecord<byte[], byte[]> record, @Nullable FlatFields fields) {
		if (path == null) {
			if (record.timestampType() == TimestampType.NO_TIMESTAMP_TYPE || record.timestamp() < 0) {
				throw new RecordMappingException(
						"the record has no timestamp to version it by (sawmill.mapping.version=" + source + ")");
			}
			return record.timestamp();
		}
		byte[] value;
		if (fields != null) {
			value = fields.get(path);
			if (value == null) {
				throw new RecordMappingException("the version field '" + path + "' is missing or not a scalar");
			}
		}
		else {
			Header header = record.headers().lastHeader(path);
			if (header == null || header.value() == null) {
				throw new RecordMappingException("a tombstone has no value to read the version field '" + path
						+ "' from, and no header '" + path + "' carrying it");
			}
			value = header.value();
		}
		return parse(new String(value, StandardCharsets.UTF_8).strip(), path);
	}

	/** A non-negative integer, or an ISO-8601 instant as epoch milliseconds. */
	static long parse(String text, String path) {
		if (!text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
			try {
				return Long.parseLong(text);
			}
			catch (NumberFormatException ex) {
				throw new RecordMappingException("the version '" + text + "' of '" + path + "' is out of range", ex);
			}
		}
		long millis;
		try {
			millis = DateTimeFormatter.ISO_INSTANT.parse(text, Instant::from).toEpochMilli();
		}
		catch (DateTimeException | ArithmeticException ex) {
			throw new RecordMappingException(
					"the version '" + text + "' of '" + path
							+ "' is neither a non-negative integer nor an ISO-8601 instant (e.g. 2024-05-01T12:00:00Z)",
					ex);
		}
		if (millis < 0) {
			throw new RecordMappingException("the version '" + text + "' of '" + path + "' is before 1970");
		}
		return millis;
	}

	@Override
	public String toString() {
		return source;
	}

}
