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
package io.sawmill.mapping.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import io.sawmill.mapping.KeyEncoding;
import io.sawmill.mapping.RecordMappingException;
import io.sawmill.mapping.RedisWrite;

class JsonHashMapperTests {

	private static JsonHashMapper mapper(String keyTemplate) {
		return JsonHashMapper.of(JsonHashMapperConfig.custom().keyTemplate(keyTemplate).build());
	}

	private static ConsumerRecord<byte[], byte[]> record(String key, String json) {
		return record("orders", 3, key, json);
	}

	private static ConsumerRecord<byte[], byte[]> record(String topic, int partition, String key, String json) {
		return new ConsumerRecord<>(topic, partition, 42L, key == null ? null : utf8(key),
				json == null ? null : utf8(json));
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

	/** The fields of an HSET as strings, in the order they are written. */
	private static Map<String, String> fields(RedisWrite write) {
		assertThat(write).isInstanceOf(RedisWrite.HashSet.class);
		Map<String, String> fields = new LinkedHashMap<>();
		((RedisWrite.HashSet) write).fields().forEach((field, value) -> fields.put(text(field), text(value)));
		return fields;
	}

	private static String singleKey(List<RedisWrite> writes) {
		assertThat(writes).isNotEmpty();
		return text(writes.get(0).key());
	}

	@Nested
	class KeyTemplates {

		@Test
		void shouldBuildKeyFromValueField() {
			List<RedisWrite> writes = mapper("user:{userId}")
				.map(record(null, "{\"userId\":\"u-7\",\"name\":\"Ann\"}"));

			assertThat(singleKey(writes)).isEqualTo("user:u-7");
		}

		@Test
		void shouldBuildKeyFromSeveralFieldsAndLiterals() {
			List<RedisWrite> writes = mapper("{tenant}:user:{userId}:v1")
				.map(record(null, "{\"tenant\":\"acme\",\"userId\":12}"));

			assertThat(singleKey(writes)).isEqualTo("acme:user:12:v1");
		}

		@Test
		void shouldReachNestedFieldWithDotPath() {
			List<RedisWrite> writes = mapper("account:{owner.id}")
				.map(record(null, "{\"owner\":{\"id\":\"o-1\",\"name\":\"Ann\"},\"balance\":10}"));

			assertThat(singleKey(writes)).isEqualTo("account:o-1");
		}

		@Test
		void shouldBuildKeyFromKafkaKey() {
			List<RedisWrite> writes = mapper("user:{@key}").map(record("k-9", "{\"name\":\"Ann\"}"));

			assertThat(singleKey(writes)).isEqualTo("user:k-9");
		}

		@Test
		void shouldBuildKeyFromNonAsciiKafkaKeyAndValueField() {
			List<RedisWrite> writes = mapper("{@key}/{name}").map(record("blåbær", "{\"name\":\"Åse ✓\"}"));

			assertThat(singleKey(writes)).isEqualTo("blåbær/Åse ✓");
		}

		@Test
		void shouldRejectAMalformedKafkaKeyInsteadOfReplacingItsBytes() {
			byte[] malformed = { 'k', (byte) 0xC3, '-', (byte) 0xFF };
			ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("orders", 0, 1L, malformed, utf8("{\"a\":1}"));

			assertThatThrownBy(() -> mapper("user:{@key}").map(record)).isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("not valid UTF-8 (byte 0x2d at index 2 of 4)");
		}

		@Test
		void shouldWriteABinaryKafkaKeyInTheConfiguredEncoding() {
			byte[] binary = { 'k', (byte) 0xC3, '-', (byte) 0xFF };
			ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("orders", 0, 1L, binary, utf8("{\"a\":1}"));
			JsonHashMapper hex = JsonHashMapper
				.of(JsonHashMapperConfig.custom().keyTemplate("user:{@key}").keyEncoding(KeyEncoding.HEX).build());

			assertThat(text(hex.map(record).get(0).key())).isEqualTo("user:6bc32dff");
		}

		@Test
		void shouldBuildKeyFromTopicAndPartition() {
			List<RedisWrite> writes = mapper("{@topic}/{@partition}/{id}")
				.map(record("payments", 5, null, "{\"id\":1}"));

			assertThat(singleKey(writes)).isEqualTo("payments/5/1");
		}

		@Test
		void shouldRejectRecordWhoseKeyFieldIsMissing() {
			assertThatThrownBy(() -> mapper("user:{userId}").map(record(null, "{\"name\":\"Ann\"}")))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("userId");
		}

		@Test
		void shouldRejectRecordWhoseKeyFieldIsEmpty() {
			assertThatThrownBy(() -> mapper("user:{userId}").map(record(null, "{\"userId\":\"\",\"name\":\"Ann\"}")))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("userId");
		}

		@Test
		void shouldRejectRecordWhoseKeyFieldIsNull() {
			assertThatThrownBy(() -> mapper("user:{userId}").map(record(null, "{\"userId\":null,\"name\":\"Ann\"}")))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("userId");
		}

		@Test
		void shouldRejectRecordWhoseNestedKeyFieldIsMissing() {
			assertThatThrownBy(() -> mapper("account:{owner.id}").map(record(null, "{\"owner\":{\"name\":\"Ann\"}}")))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("owner.id");
		}

		@Test
		void shouldRejectRecordWithoutKafkaKeyWhenTemplateUsesIt() {
			assertThatThrownBy(() -> mapper("user:{@key}").map(record(null, "{\"name\":\"Ann\"}")))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("{@key}");
		}

	}

	@Nested
	class Flattening {

		@Test
		void shouldFlattenNestedObjectsWithDotPaths() {
			List<RedisWrite> writes = mapper("{@key}").map(record("k",
					"{\"name\":\"Ann\",\"address\":{\"city\":\"Oslo\",\"geo\":{\"lat\":59.9,\"lon\":10.7}}}"));

			assertThat(fields(writes.get(0))).containsExactly(Map.entry("name", "Ann"),
					Map.entry("address.city", "Oslo"), Map.entry("address.geo.lat", "59.9"),
					Map.entry("address.geo.lon", "10.7"));
		}

		@Test
		void shouldKeepArraysAsJsonText() {
			List<RedisWrite> writes = mapper("{@key}")
				.map(record("k", "{\"tags\":[\"a\",\"b\"],\"items\":[{\"sku\":1},{\"sku\":2}]}"));

			assertThat(fields(writes.get(0))).containsExactly(Map.entry("tags", "[\"a\",\"b\"]"),
					Map.entry("items", "[{\"sku\":1},{\"sku\":2}]"));
		}

		@Test
		void shouldLeaveOutNulls() {
			List<RedisWrite> writes = mapper("{@key}")
				.map(record("k", "{\"name\":\"Ann\",\"nickname\":null,\"address\":{\"city\":null,\"zip\":\"0150\"}}"));

			assertThat(fields(writes.get(0))).containsExactly(Map.entry("name", "Ann"),
					Map.entry("address.zip", "0150"));
		}

		@Test
		void shouldWriteNumbersAndBooleansAsText() {
			List<RedisWrite> writes = mapper("{@key}").map(record("k",
					"{\"count\":3,\"price\":19.5,\"big\":12345678901234,\"active\":true,\"deleted\":false}"));

			assertThat(fields(writes.get(0))).containsExactly(Map.entry("count", "3"), Map.entry("price", "19.5"),
					Map.entry("big", "12345678901234"), Map.entry("active", "true"), Map.entry("deleted", "false"));
		}

		@Test
		void shouldWriteStringsWithoutQuotes() {
			List<RedisWrite> writes = mapper("{@key}")
				.map(record("k", "{\"quote\":\"say \\\"hi\\\"\",\"unicode\":\"blåbær\"}"));

			assertThat(fields(writes.get(0))).containsExactly(Map.entry("quote", "say \"hi\""),
					Map.entry("unicode", "blåbær"));
		}

		@Test
		void shouldWriteAFieldOnceWhenTwoPathsReadAlikeTheLaterValueInTheFirstPlace() {
			List<RedisWrite> writes = mapper("{@key}").map(record("k", "{\"a\":{\"b\":1},\"c\":2,\"a.b\":3}"));

			assertThat(((RedisWrite.HashSet) writes.get(0)).fields()).hasSize(2);
			assertThat(fields(writes.get(0))).containsExactly(Map.entry("a.b", "3"), Map.entry("c", "2"));
		}

		@Test
		void shouldWriteEveryFieldOfAWideRecordInDocumentOrder() {
			StringBuilder json = new StringBuilder("{");
			List<Map.Entry<String, String>> expected = new ArrayList<>();
			for (int i = 0; i < 100; i++) {
				json.append(i == 0 ? "" : ",").append("\"f").append(i).append("\":").append(i);
				expected.add(Map.entry("f" + i, Integer.toString(i)));
			}
			json.append(",\"g\":{\"h\":1},\"g.h\":2}");
			expected.add(Map.entry("g.h", "2"));

			List<RedisWrite> writes = mapper("{@key}").map(record("k", json.toString()));

			assertThat(((RedisWrite.HashSet) writes.get(0)).fields()).hasSize(expected.size());
			assertThat(new ArrayList<>(fields(writes.get(0)).entrySet())).containsExactlyElementsOf(expected);
		}

		@Test
		void shouldWriteNothingForEmptyObject() {
			assertThat(mapper("{@key}").map(record("k", "{}"))).isEmpty();
		}

		@Test
		void shouldWriteNothingWhenEveryFieldIsNull() {
			assertThat(mapper("{@key}").map(record("k", "{\"a\":null,\"b\":{\"c\":null}}"))).isEmpty();
		}

	}

	@Nested
	class FieldSelection {

		private JsonHashMapper selecting(String... fields) {
			return JsonHashMapper
				.of(JsonHashMapperConfig.custom().keyTemplate("user:{id}").fields(List.of(fields)).build());
		}

		@Test
		void shouldWriteOnlySelectedTopLevelFields() {
			List<RedisWrite> writes = selecting("name", "email")
				.map(record(null, "{\"id\":1,\"name\":\"Ann\",\"email\":\"a@x\",\"password\":\"secret\"}"));

			assertThat(fields(writes.get(0))).containsExactly(Map.entry("name", "Ann"), Map.entry("email", "a@x"));
		}

		@Test
		void shouldResolveKeyFromFieldThatIsNotSelected() {
			List<RedisWrite> writes = selecting("name").map(record(null, "{\"id\":1,\"name\":\"Ann\"}"));

			assertThat(singleKey(writes)).isEqualTo("user:1");
			assertThat(fields(writes.get(0))).containsOnlyKeys("name");
		}

		@Test
		void shouldWriteEveryNestedFieldOfSelectedObject() {
			List<RedisWrite> writes = selecting("address").map(record(null,
					"{\"id\":1,\"address\":{\"city\":\"Oslo\",\"geo\":{\"lat\":1}},\"addressee\":\"Ann\"}"));

			assertThat(fields(writes.get(0))).containsExactly(Map.entry("address.city", "Oslo"),
					Map.entry("address.geo.lat", "1"));
		}

		@Test
		void shouldSelectNestedFieldByDotPath() {
			List<RedisWrite> writes = selecting("address.city")
				.map(record(null, "{\"id\":1,\"address\":{\"city\":\"Oslo\",\"zip\":\"0150\"}}"));

			assertThat(fields(writes.get(0))).containsExactly(Map.entry("address.city", "Oslo"));
		}

		@Test
		void shouldWriteNothingWhenNoSelectedFieldIsPresent() {
			assertThat(selecting("name").map(record(null, "{\"id\":1,\"email\":\"a@x\"}"))).isEmpty();
		}

		@Test
		void shouldSelectTheSameFieldsForEveryRecordOfATopic() {
			JsonHashMapper mapper = selecting("name");

			for (int i = 0; i < 3; i++) {
				List<RedisWrite> writes = mapper
					.map(record(null, "{\"id\":" + i + ",\"name\":\"n" + i + "\",\"email\":\"e\"}"));

				assertThat(fields(writes.get(0))).containsExactly(Map.entry("name", "n" + i));
			}
		}

		@Test
		void shouldWriteEveryNameWhenNamesVaryPerRecordBeyondTheNamesItKeeps() {
			JsonHashMapper mapper = selecting("scores");
			int records = JsonHashMapper.CACHED_FIELD_NAMES + 10;

			for (int i = 0; i < records; i++) {
				List<RedisWrite> writes = mapper
					.map(record(null, "{\"id\":1,\"scores\":{\"u" + i + "\":" + i + "},\"other" + i + "\":0}"));

				assertThat(fields(writes.get(0))).as("record %d", i).containsExactly(Map.entry("scores.u" + i, "" + i));
			}
		}

	}

	@Nested
	class Expiry {

		@Test
		void shouldExpireHashAfterWritingItWhenTtlIsSet() {
			JsonHashMapper mapper = JsonHashMapper
				.of(JsonHashMapperConfig.custom().keyTemplate("user:{id}").ttl(Duration.ofMinutes(10)).build());

			List<RedisWrite> writes = mapper.map(record(null, "{\"id\":1,\"name\":\"Ann\"}"));

			assertThat(writes).hasSize(2);
			assertThat(writes.get(0)).isInstanceOf(RedisWrite.HashSet.class);
			assertThat(writes.get(1)).isInstanceOfSatisfying(RedisWrite.Expire.class, expire -> {
				assertThat(text(expire.key())).isEqualTo("user:1");
				assertThat(expire.ttl()).isEqualTo(Duration.ofMinutes(10));
			});
		}

		@Test
		void shouldNotExpireHashWhenTtlIsZero() {
			JsonHashMapper mapper = JsonHashMapper
				.of(JsonHashMapperConfig.custom().keyTemplate("user:{id}").ttl(Duration.ZERO).build());

			List<RedisWrite> writes = mapper.map(record(null, "{\"id\":1,\"name\":\"Ann\"}"));

			assertThat(writes).singleElement().isInstanceOf(RedisWrite.HashSet.class);
		}

		@Test
		void shouldNotExpireByDefault() {
			assertThat(mapper("user:{id}").map(record(null, "{\"id\":1}"))).singleElement()
				.isInstanceOf(RedisWrite.HashSet.class);
		}

		@Test
		void shouldNotExpireWhenNothingIsWritten() {
			JsonHashMapper mapper = JsonHashMapper
				.of(JsonHashMapperConfig.custom().keyTemplate("{@key}").ttl(Duration.ofSeconds(5)).build());

			assertThat(mapper.map(record("k", "{}"))).isEmpty();
		}

	}

	@Nested
	class Tombstones {

		@Test
		void shouldDeleteKeyOfTombstoneWhenTemplateUsesOnlyRecordPlaceholders() {
			List<RedisWrite> writes = mapper("{@topic}:{@key}").map(record("k-1", null));

			assertThat(writes).singleElement()
				.isInstanceOfSatisfying(RedisWrite.Delete.class,
						del -> assertThat(text(del.key())).isEqualTo("orders:k-1"));
		}

		@Test
		void shouldRejectTombstoneWhenTemplateReadsValueFields() {
			assertThatThrownBy(() -> mapper("user:{userId}").map(record("k-1", null)))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("tombstone")
				.hasMessageContaining("user:{userId}");
		}

		@Test
		void shouldRejectTombstoneWithoutKafkaKey() {
			assertThatThrownBy(() -> mapper("user:{@key}").map(record(null, null)))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("{@key}");
		}

	}

	@Nested
	class InvalidValues {

		@Test
		void shouldRejectInvalidJson() {
			assertThatThrownBy(() -> mapper("{@key}").map(record("k", "{\"name\":")))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("not valid JSON");
		}

		@Test
		void shouldRejectJsonArray() {
			assertThatThrownBy(() -> mapper("{@key}").map(record("k", "[1,2]")))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("must be a JSON object")
				.hasMessageContaining("array");
		}

		@Test
		void shouldRejectJsonScalar() {
			assertThatThrownBy(() -> mapper("{@key}").map(record("k", "\"just text\"")))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("must be a JSON object");
		}

		@Test
		void shouldRejectJsonNullLiteral() {
			assertThatThrownBy(() -> mapper("{@key}").map(record("k", "null")))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("must be a JSON object");
		}

		@Test
		void shouldRejectEmptyValue() {
			assertThatThrownBy(() -> mapper("{@key}").map(record("k", ""))).isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("must be a JSON object, but was empty");
		}

		@Test
		void shouldRejectTrailingContentAfterObject() {
			assertThatThrownBy(() -> mapper("{@key}").map(record("k", "{\"a\":1} {\"b\":2}")))
				.isInstanceOf(RecordMappingException.class);
		}

	}

	@Nested
	class ConfigValidation {

		@Test
		void shouldRejectMissingTemplate() {
			assertThatIllegalArgumentException().isThrownBy(() -> JsonHashMapperConfig.custom().build())
				.withMessageContaining("keyTemplate must be set");
		}

		@Test
		void shouldRejectBlankTemplate() {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> JsonHashMapperConfig.custom().keyTemplate("  ").build())
				.withMessageContaining("keyTemplate must be set")
				.withMessageContaining("'  '");
		}

		@Test
		void shouldRejectTemplateWithoutPlaceholder() {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> JsonHashMapperConfig.custom().keyTemplate("users").build())
				.withMessageContaining("keyTemplate 'users' is invalid")
				.withMessageContaining("no placeholder");
		}

		@Test
		void shouldRejectUnclosedBrace() {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> JsonHashMapperConfig.custom().keyTemplate("user:{userId").build())
				.withMessageContaining("keyTemplate 'user:{userId' is invalid")
				.withMessageContaining("never closed");
		}

		@Test
		void shouldRejectUnopenedBrace() {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> JsonHashMapperConfig.custom().keyTemplate("user:userId}").build())
				.withMessageContaining("keyTemplate 'user:userId}' is invalid")
				.withMessageContaining("no matching '{'");
		}

		@Test
		void shouldRejectNestedBraces() {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> JsonHashMapperConfig.custom().keyTemplate("user:{{userId}}").build())
				.withMessageContaining("keyTemplate 'user:{{userId}}' is invalid");
		}

		@Test
		void shouldRejectEmptyPlaceholder() {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> JsonHashMapperConfig.custom().keyTemplate("user:{}").build())
				.withMessageContaining("keyTemplate 'user:{}' is invalid")
				.withMessageContaining("no field name");
		}

		@Test
		void shouldRejectUnknownRecordPlaceholder() {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> JsonHashMapperConfig.custom().keyTemplate("{@offset}").build())
				.withMessageContaining("keyTemplate '{@offset}' is invalid")
				.withMessageContaining("{@offset}")
				.withMessageContaining("{@key}");
		}

		@Test
		void shouldRejectNegativeTtl() {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> JsonHashMapperConfig.custom().ttl(Duration.ofSeconds(-1)))
				.withMessageContaining("ttl must be zero (no expiry) or positive, but was PT-1S");
		}

		@Test
		void shouldRejectBlankFieldName() {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> JsonHashMapperConfig.custom().fields(List.of("name", " ")))
				.withMessageContaining("fields must not contain blank names");
		}

		@Test
		void shouldKeepEverySettingWhenCopied() {
			JsonHashMapperConfig base = JsonHashMapperConfig.custom()
				.keyTemplate("user:{id}")
				.keyEncoding(KeyEncoding.BASE64)
				.fields(List.of("name"))
				.ttl(Duration.ofSeconds(30))
				.build();

			JsonHashMapperConfig copy = JsonHashMapperConfig.from(base).build();

			assertThat(copy.keyTemplateSource()).isEqualTo("user:{id}");
			assertThat(copy.keyEncoding()).isEqualTo(KeyEncoding.BASE64);
			assertThat(copy.fields()).containsExactly("name");
			assertThat(copy.ttl()).isEqualTo(Duration.ofSeconds(30));
			assertThat(copy.pathSeparator()).isEqualTo(".");
		}

	}

	@Nested
	class Versions {

		private final JsonHashMapper versioned = JsonHashMapper.of(JsonHashMapperConfig.custom()
			.keyTemplate("user:{@key}")
			.ttl(Duration.ofMinutes(2))
			.version("field:rev")
			.tombstoneRetention(Duration.ofMinutes(30))
			.build());

		private static List<String> call(RedisWrite write) {
			assertThat(write).isInstanceOf(RedisWrite.Function.class);
			RedisWrite.Function function = (RedisWrite.Function) write;
			List<String> call = new java.util.ArrayList<>(List.of(function.function(), text(function.key())));
			function.args().forEach(arg -> call.add(text(arg)));
			return call;
		}

		@Test
		void shouldWriteFieldsAndTtlInOneVersionGuardedCall() {
			List<RedisWrite> writes = versioned.map(record("u-1", "{\"rev\":7,\"name\":\"Ann\"}"));

			assertThat(writes).singleElement()
				.satisfies(write -> assertThat(call(write)).containsExactly("sawmill_upsert", "user:u-1", "7", "120000",
						"rev", "7", "name", "Ann"));
			assertThat(writes.get(0).idempotent()).isTrue();
		}

		@Test
		void shouldDeleteATombstoneKeepingItsVersionForTheRetention() {
			ConsumerRecord<byte[], byte[]> tombstone = record("u-1", null);
			tombstone.headers().add("rev", utf8("8"));

			assertThat(versioned.map(tombstone)).singleElement()
				.satisfies(
						write -> assertThat(call(write)).containsExactly("sawmill_delete", "user:u-1", "8", "1800000"));
		}

		@Test
		void shouldRejectARecordWithoutAVersionOrWritingTheReservedField() {
			assertThatThrownBy(() -> versioned.map(record("u-1", "{\"name\":\"Ann\"}")))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("'rev' is missing");
			assertThatThrownBy(() -> versioned.map(record("u-1", "{\"rev\":1,\"__sawmill_version\":\"9\"}")))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("__sawmill_version is reserved");
		}

	}

}
