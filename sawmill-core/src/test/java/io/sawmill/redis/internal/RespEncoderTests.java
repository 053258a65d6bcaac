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
package io.sawmill.redis.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sawmill.mapping.RedisWrite;

/**
 * The exact bytes on the wire: RESP arrays of bulk strings, as Redis' protocol spec
 * defines them.
 */
class RespEncoderTests {

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String encoded(RedisWrite... writes) {
		RespEncoder encoder = new RespEncoder(8);
		for (RedisWrite write : writes) {
			encoder.append(write);
		}
		ByteBuf out = Unpooled.buffer();
		encoder.copyTo(out, 0, encoder.size());
		return out.toString(StandardCharsets.UTF_8);
	}

	@Test
	void shouldEncodeHashSetWithEveryFieldInOrder() {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("name", "Ann");
		fields.put("city", "blåbær");

		assertThat(encoded(RedisWrite.hset("user:1", fields)))
			.isEqualTo("*6\r\n$4\r\nHSET\r\n$6\r\nuser:1\r\n$4\r\nname\r\n$3\r\nAnn\r\n$4\r\ncity\r\n$8\r\nblåbær\r\n");
	}

	@Test
	void shouldEncodeWholeSecondsAsExpireAndOthersAsPexpire() {
		assertThat(encoded(RedisWrite.expire(utf8("k"), Duration.ofHours(1)),
				RedisWrite.expire(utf8("k"), Duration.ofHours(1)),
				RedisWrite.expire(utf8("k"), Duration.ofMillis(1_500))))
			.isEqualTo("*3\r\n$6\r\nEXPIRE\r\n$1\r\nk\r\n$4\r\n3600\r\n"
					+ "*3\r\n$6\r\nEXPIRE\r\n$1\r\nk\r\n$4\r\n3600\r\n"
					+ "*3\r\n$7\r\nPEXPIRE\r\n$1\r\nk\r\n$4\r\n1500\r\n");
	}

	@Test
	void shouldEncodeDeleteAndAnyOtherCommandWithItsNameInUpperCase() {
		assertThat(encoded(RedisWrite.del(utf8("gone")), RedisWrite.command("zadd", utf8("z"), utf8("1.5"), utf8("m"))))
			.isEqualTo("*2\r\n$3\r\nDEL\r\n$4\r\ngone\r\n" + "*4\r\n$4\r\nZADD\r\n$1\r\nz\r\n$3\r\n1.5\r\n$1\r\nm\r\n");
	}

	@Test
	void shouldEncodeAFunctionAsFcallOfOneKey() {
		assertThat(
				encoded(RedisWrite.function("sawmill_upsert", utf8("k"), utf8("7"), utf8("0"), utf8("f"), utf8("v"))))
			.isEqualTo("*8\r\n$5\r\nFCALL\r\n$14\r\nsawmill_upsert\r\n$1\r\n1\r\n$1\r\nk\r\n"
					+ "$1\r\n7\r\n$1\r\n0\r\n$1\r\nf\r\n$1\r\nv\r\n");
	}

	@Test
	void shouldEncodeLengthsBeyondTheHeaderTables() {
		String big = "v".repeat(5_000);
		Map<String, String> fields = new LinkedHashMap<>();
		for (int i = 0; i < 300; i++) {
			fields.put("f" + i, i == 0 ? big : "x");
		}

		String encoded = encoded(RedisWrite.hset("k", fields));

		assertThat(encoded)
			.startsWith("*602\r\n$4\r\nHSET\r\n$1\r\nk\r\n$2\r\nf0\r\n$5000\r\n" + big + "\r\n$2\r\nf1\r\n");
		assertThat(encoded).endsWith("$4\r\nf299\r\n$1\r\nx\r\n");
	}

}
