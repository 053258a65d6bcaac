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

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.LongSerializer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.sawmill.mapping.KeyEncoding;
import io.sawmill.mapping.RecordMappingException;

class KeyTemplateTests {

	private static String resolve(String template, KeyEncoding encoding, byte[] kafkaKey) {
		ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("orders", 3, 42L, kafkaKey, null);
		return new String(KeyTemplate.parse(template, encoding).resolve(record, new FlatFields(false)), UTF_8);
	}

	private static String resolveWithValue(String template, String json) {
		ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("orders", 3, 42L, "k".getBytes(UTF_8),
				json.getBytes(UTF_8));
		return new String(KeyTemplate.parse(template, KeyEncoding.UTF8)
			.resolve(record, new JsonFlattener(".").flatten(record.value())), UTF_8);
	}

	@Nested
	class LiteralBraces {

		@Test
		void shouldWriteDoubledBracesAsLiteralBracesAroundAPlaceholder() {
			assertThat(resolveWithValue("{{user:{userId}}}", "{\"userId\":42}")).isEqualTo("{user:42}");
		}

		@Test
		void shouldExpressARedisClusterHashTagBeforeTheKafkaKey() {
			assertThat(resolve("{{user}}:{@key}", KeyEncoding.UTF8, "42".getBytes(UTF_8))).isEqualTo("{user}:42");
		}

		@Test
		void shouldKeepNonAsciiLiteralsNextToEscapedBraces() {
			assertThat(resolve("blå{{{@key}}}", KeyEncoding.UTF8, "k".getBytes(UTF_8))).isEqualTo("blå{k}");
		}

		@Test
		void shouldRejectALoneClosingBraceNamingItsPositionAndTheEscape() {
			assertThatIllegalArgumentException().isThrownBy(() -> KeyTemplate.parse("{@key}:a}b", KeyEncoding.UTF8))
				.withMessage("keyTemplate '{@key}:a}b' is invalid: '}' at position 8 has no matching '{'"
						+ " (write '}}' for a literal '}')");
		}

		@Test
		void shouldRejectAnUnclosedBraceNamingItsPositionAndTheEscape() {
			assertThatIllegalArgumentException().isThrownBy(() -> KeyTemplate.parse("{@key}:{user", KeyEncoding.UTF8))
				.withMessage("keyTemplate '{@key}:{user' is invalid: '{' at position 7 is never closed"
						+ " (write '{{' for a literal '{')");
		}

		@Test
		void shouldRejectABraceInsideAPlaceholder() {
			assertThatIllegalArgumentException().isThrownBy(() -> KeyTemplate.parse("{a{b}}", KeyEncoding.UTF8))
				.withMessageContaining("keyTemplate '{a{b}}' is invalid: placeholder at position 0 contains a '{'");
		}

		@Test
		void shouldRejectATemplateWhoseOnlyBracesAreLiteral() {
			assertThatIllegalArgumentException().isThrownBy(() -> KeyTemplate.parse("{{user}}", KeyEncoding.UTF8))
				.withMessageContaining("no placeholder");
		}

	}

	@Nested
	class Encodings {

		@Test
		void shouldWriteATextKeyAsItIsWithUtf8() {
			assertThat(resolve("user:{@key}", KeyEncoding.UTF8, "blåbær-✓".getBytes(UTF_8))).isEqualTo("user:blåbær-✓");
		}

		@Test
		void shouldWriteLowercaseHex() {
			assertThat(resolve("user:{@key}", KeyEncoding.HEX, new byte[] { 0, (byte) 0xAB, 0x7F }))
				.isEqualTo("user:00ab7f");
		}

		@Test
		void shouldWriteUrlSafeBase64WithoutPadding() {
			assertThat(resolve("{@key}", KeyEncoding.BASE64, new byte[] { (byte) 0xFB, (byte) 0xFF })).isEqualTo("-_8");
		}

		@ParameterizedTest
		@EnumSource(value = KeyEncoding.class, names = { "HEX", "BASE64" })
		void shouldGiveEveryDistinctLongSerializerKeyAndRandomKeyItsOwnText(KeyEncoding encoding) {
			Set<ByteBuffer> kafkaKeys = new HashSet<>();
			try (LongSerializer longs = new LongSerializer()) {
				for (long id = 0; id < 1000; id++) {
					kafkaKeys.add(ByteBuffer.wrap(longs.serialize("t", id)));
				}
			}
			Random random = new Random(7);
			for (int i = 0; i < 1000; i++) {
				byte[] key = new byte[1 + random.nextInt(16)];
				random.nextBytes(key);
				kafkaKeys.add(ByteBuffer.wrap(key));
			}

			Set<String> redisKeys = new HashSet<>();
			kafkaKeys.forEach(key -> redisKeys.add(resolve("{@key}", encoding, key.array())));

			assertThat(kafkaKeys).hasSizeGreaterThan(1900);
			assertThat(redisKeys).hasSameSizeAs(kafkaKeys);
		}

		@Test
		void shouldDeadLetterABinaryKeyWithUtf8NamingTheBadByteInsteadOfReplacingIt() {
			// 00 .. 00 c8: 0xc8 starts a 2-byte sequence
			byte[] key = new LongSerializer().serialize("t", 200L);
			assertThatThrownBy(() -> resolve("user:{@key}", KeyEncoding.UTF8, key))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("the Kafka key is not valid UTF-8 (byte 0xc8 at index 7 of 8)")
				.hasMessageContaining("HEX or BASE64");
		}

		@ParameterizedTest
		@EnumSource(KeyEncoding.class)
		void shouldDeadLetterARecordWithoutAKafkaKeyWithEveryEncoding(KeyEncoding encoding) {
			assertThatThrownBy(() -> resolve("user:{@key}", encoding, null)).isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("no Kafka key");
			assertThatThrownBy(() -> resolve("user:{@key}", encoding, new byte[0]))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("no Kafka key");
		}

	}

	@Nested
	class Utf8Validation {

		@ParameterizedTest
		@ValueSource(strings = { "", "ascii", "blåbær", "✓ check", "emoji 😀", "\u07FF\u0800\uFFFF",
				"\uD800\uDC00\uDBFF\uDFFF" })
		void shouldAcceptWellFormedText(String text) {
			assertThat(KeyEncoding.firstInvalidUtf8Byte(text.getBytes(UTF_8))).isEqualTo(-1);
		}

		@Test
		void shouldRejectOverlongFormsSurrogatesTruncationsAndCodePointsAboveTheLast() {
			// overlong '/'
			assertThat(KeyEncoding.firstInvalidUtf8Byte(bytes(0x61, 0xC0, 0xAF))).isEqualTo(1);
			assertThat(KeyEncoding.firstInvalidUtf8Byte(bytes(0xE0, 0x80, 0xAF))).isEqualTo(1); // overlong
			// surrogate D800
			assertThat(KeyEncoding.firstInvalidUtf8Byte(bytes(0xED, 0xA0, 0x80))).isEqualTo(1);
			// > U+10FFFF
			assertThat(KeyEncoding.firstInvalidUtf8Byte(bytes(0xF4, 0x90, 0x80, 0x80))).isEqualTo(1);
			assertThat(KeyEncoding.firstInvalidUtf8Byte(bytes(0x61, 0x62, 0xE2, 0x9C))).isEqualTo(2); // truncated
			// bad continuation
			assertThat(KeyEncoding.firstInvalidUtf8Byte(bytes(0xE2, 0x41, 0x93))).isEqualTo(1);
			// lone continuation
			assertThat(KeyEncoding.firstInvalidUtf8Byte(bytes(0x80))).isZero();
			assertThat(KeyEncoding.firstInvalidUtf8Byte(bytes(0xFF))).isZero();
		}

		@Test
		void shouldAgreeWithTheJdksStrictDecoderOnRandomBytes() {
			Random random = new Random(11);
			for (int i = 0; i < 20_000; i++) {
				byte[] bytes = new byte[random.nextInt(8)];
				random.nextBytes(bytes);
				assertThat(KeyEncoding.firstInvalidUtf8Byte(bytes) < 0).as("%s", Arrays.toString(bytes))
					.isEqualTo(strictlyDecodes(bytes));
			}
		}

		private static boolean strictlyDecodes(byte[] bytes) {
			try {
				UTF_8.newDecoder()
					.onMalformedInput(CodingErrorAction.REPORT)
					.onUnmappableCharacter(CodingErrorAction.REPORT)
					.decode(ByteBuffer.wrap(bytes));
				return true;
			}
			catch (CharacterCodingException ex) {
				return false;
			}
		}

		private static byte[] bytes(int... values) {
			byte[] bytes = new byte[values.length];
			for (int i = 0; i < values.length; i++) {
				bytes[i] = (byte) values[i];
			}
			return bytes;
		}

	}

}
