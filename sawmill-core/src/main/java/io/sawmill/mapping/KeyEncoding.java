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
package io.sawmill.mapping;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;

/**
 * How the Kafka key becomes text in a key template's {@code {@key}}. Each encoding maps
 * different Kafka keys to different text, so two records share a Redis key only when
 * their Kafka keys are equal; a key the encoding cannot represent is dead-lettered with
 * its reason, never rewritten.
 */
public enum KeyEncoding {

	/**
	 * The key's bytes as they are, when they are valid UTF-8 (string keys, e.g. from
	 * Kafka's {@code StringSerializer}): readable keys, the same as the producer's. A key
	 * that is not valid UTF-8 (a {@code LongSerializer} key, a UUID in 16 bytes, random
	 * bytes) is dead-lettered with the position of its first bad byte. Use for text keys.
	 */
	UTF8,

	/**
	 * Lowercase hexadecimal, two characters per byte: any key, readable in
	 * {@code redis-cli} and easy to match with a key in another tool's hex dump, at twice
	 * the length. Use for binary keys that people look up by hand.
	 */
	HEX,

	/**
	 * Base64 with the URL-safe alphabet and without padding (RFC 4648 section 5): any
	 * key, at 4/3 of its length, the shortest of the three for binary keys. The URL-safe
	 * alphabet has no {@code /} or {@code +}, so a key can go into a URL or a file name
	 * unescaped; padding is left out because the length already decides how the last
	 * characters decode, so the text stays unique without it. Use for binary keys where
	 * memory matters more than reading them.
	 */
	BASE64;

	/** The default: Kafka keys are most often strings. */
	public static final KeyEncoding DEFAULT = UTF8;

	private static final HexFormat LOWER_HEX = HexFormat.of();

	private static final Base64.Encoder URL_SAFE = Base64.getUrlEncoder().withoutPadding();

	/**
	 * The text of a non-empty Kafka key, as UTF-8 bytes.
	 * @throws RecordMappingException when the key is not valid UTF-8 and this is
	 * {@link #UTF8}
	 */
	public byte[] encode(byte[] kafkaKey) {
		return switch (this) {
			case UTF8 -> requireUtf8(kafkaKey);
			case HEX -> LOWER_HEX.formatHex(kafkaKey).getBytes(StandardCharsets.US_ASCII);
			case BASE64 -> URL_SAFE.encode(kafkaKey);
		};
	}

	private static byte[] requireUtf8(byte[] key) {
		int bad = firstInvalidUtf8Byte(key);
		if (bad >= 0) {
			throw new RecordMappingException("the Kafka key is not valid UTF-8 (byte 0x"
					+ LOWER_HEX.toHexDigits(key[bad]) + " at index " + bad + " of " + key.length
					+ "), so {@key} cannot use it as text; for binary keys set the key encoding (sawmill.mapping.key-encoding) to HEX or BASE64");
		}
		return key;
	}

	/**
	 * The index of the first byte that does not belong to a well-formed UTF-8 sequence
	 * (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or -1 when
	 * every byte does.
	 */
	public static int firstInvalidUtf8Byte(byte[] bytes) {
		int i = 0;
		while (i < bytes.length) {
			int b = bytes[i] & 0xFF;
			if (b < 0x80) {
				i++;
				continue;
			}
			int length;
			int min2;
			int max2;
			if (b >= 0xC2 && b <= 0xDF) {
				length = 2;
				min2 = 0x80;
				max2 = 0xBF;
			}
			else if (b == 0xE0) {
				length = 3;
				min2 = 0xA0;
				max2 = 0xBF;
			}
			else if (b == 0xED) {
				length = 3;
				min2 = 0x80;
				max2 = 0x9F;
			}
			else if (b >= 0xE1 && b <= 0xEF) {
				length = 3;
				min2 = 0x80;
				max2 = 0xBF;
			}
			else if (b == 0xF0) {
				length = 4;
				min2 = 0x90;
				max2 = 0xBF;
			}
			else if (b >= 0xF1 && b <= 0xF3) {
				length = 4;
				min2 = 0x80;
				max2 = 0xBF;
			}
			else if (b == 0xF4) {
				length = 4;
				min2 = 0x80;
				max2 = 0x8F;
			}
			else {
				return i;
			}
			if (i + 1 >= bytes.length) {
				return i;
			}
			int second = bytes[i + 1] & 0xFF;
			if (second < min2 || second > max2) {
				return i + 1;
			}
			for (int k = 2; k < length; k++) {
				if (i + k >= bytes.length) {
					return i;
				}
				int next = bytes[i + k] & 0xFF;
				if (next < 0x80 || next > 0xBF) {
					return i + k;
				}
			}
			i += length;
		}
		return -1;
	}

}
