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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import io.sawmill.mapping.RecordMappingException;

class VersionSourceTests {

	private static ConsumerRecord<byte[], byte[]> record(long timestamp, TimestampType type, String json) {
		return new ConsumerRecord<>("t", 0, 7L, timestamp, type, 0, 0, null,
				json == null ? null : json.getBytes(StandardCharsets.UTF_8), new RecordHeaders(), Optional.empty());
	}

	private static FlatFields flat(String json) {
		return new JsonFlattener(".").flatten(json.getBytes(StandardCharsets.UTF_8));
	}

	private static long version(String source, String json) {
		return VersionSource.parse(source).of(record(1L, TimestampType.CREATE_TIME, json), flat(json));
	}

	@Test
	void shouldVersionByTheKafkaRecordTimestamp() {
		ConsumerRecord<byte[], byte[]> record = record(1_714_564_800_000L, TimestampType.CREATE_TIME, "{}");

		assertThat(VersionSource.parse("timestamp").of(record, flat("{}"))).isEqualTo(1_714_564_800_000L);
		assertThat(VersionSource.parse("timestamp").of(record, null)).isEqualTo(1_714_564_800_000L);
	}

	@Test
	void shouldRejectARecordWithoutATimestamp() {
		assertThatExceptionOfType(RecordMappingException.class)
			.isThrownBy(
					() -> VersionSource.parse("timestamp").of(record(-1L, TimestampType.NO_TIMESTAMP_TYPE, "{}"), null))
			.withMessageContaining("no timestamp");
	}

	@Test
	void shouldReadAnIntegerFieldAsItIs() {
		assertThat(version("field:version", "{\"version\":42}")).isEqualTo(42);
		assertThat(version("field:version", "{\"version\":\"9223372036854775807\"}")).isEqualTo(Long.MAX_VALUE);
		assertThat(version("field:meta.rev", "{\"meta\":{\"rev\":3}}")).isEqualTo(3);
	}

	@Test
	void shouldReadAnIsoInstantAsEpochMillis() {
		assertThat(version("field:updatedAt", "{\"updatedAt\":\"2024-05-01T12:00:00Z\"}"))
			.isEqualTo(1_714_564_800_000L);
		assertThat(version("field:updatedAt", "{\"updatedAt\":\"2024-05-01T14:00:00.250+02:00\"}"))
			.isEqualTo(1_714_564_800_250L);
	}

	@Test
	void shouldRejectAVersionThatIsMissingNegativeOrNotANumberNorAnInstant() {
		assertThatExceptionOfType(RecordMappingException.class).isThrownBy(() -> version("field:version", "{\"v\":1}"))
			.withMessage("the version field 'version' is missing or not a scalar");
		assertThatExceptionOfType(RecordMappingException.class)
			.isThrownBy(() -> version("field:version", "{\"version\":-3}"))
			.withMessageContaining("is neither a non-negative integer nor an ISO-8601 instant");
		assertThatExceptionOfType(RecordMappingException.class)
			.isThrownBy(() -> version("field:version", "{\"version\":\"yesterday\"}"))
			.withMessageContaining("'yesterday'");
		assertThatExceptionOfType(RecordMappingException.class)
			.isThrownBy(() -> version("field:version", "{\"version\":\"99999999999999999999\"}"))
			.withMessageContaining("out of range");
		assertThatExceptionOfType(RecordMappingException.class)
			.isThrownBy(() -> version("field:updatedAt", "{\"updatedAt\":\"1969-12-31T23:59:59Z\"}"))
			.withMessageContaining("before 1970");
	}

	@Test
	void shouldReadATombstonesVersionFromTheHeaderNamedLikeTheField() {
		ConsumerRecord<byte[], byte[]> tombstone = record(1L, TimestampType.CREATE_TIME, null);
		tombstone.headers().add("updatedAt", "2024-05-01T12:00:00Z".getBytes(StandardCharsets.UTF_8));

		assertThat(VersionSource.parse("field:updatedAt").of(tombstone, null)).isEqualTo(1_714_564_800_000L);
	}

	@Test
	void shouldRejectATombstoneWithoutTheVersionHeader() {
		assertThatExceptionOfType(RecordMappingException.class)
			.isThrownBy(
					() -> VersionSource.parse("field:updatedAt").of(record(1L, TimestampType.CREATE_TIME, null), null))
			.withMessageContaining("no header 'updatedAt'");
	}

	@Test
	void shouldRejectASourceThatIsNeitherTimestampNorAField() {
		assertThatIllegalArgumentException().isThrownBy(() -> VersionSource.parse("field:"))
			.withMessageContaining("but was 'field:'");
		assertThatIllegalArgumentException().isThrownBy(() -> VersionSource.parse("offset"))
			.withMessageContaining("but was 'offset'");
	}

}
