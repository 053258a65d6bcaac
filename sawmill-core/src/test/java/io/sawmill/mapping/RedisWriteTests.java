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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RedisWriteTests {

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	@Test
	void shouldEncodeStringHashInItsIterationOrder() {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("z", "1");
		fields.put("a", "2");
		fields.put("m", "ø");

		RedisWrite.HashSet hset = RedisWrite.hset("user:1", fields);

		List<String> names = new ArrayList<>();
		hset.fields()
			.forEach((field, value) -> names
				.add(new String(field, StandardCharsets.UTF_8) + "=" + new String(value, StandardCharsets.UTF_8)));
		assertThat(new String(hset.key(), StandardCharsets.UTF_8)).isEqualTo("user:1");
		assertThat(names).containsExactly("z=1", "a=2", "m=ø");
	}

	@Test
	void shouldRejectHashSetWithoutFields() {
		assertThatIllegalArgumentException().isThrownBy(() -> RedisWrite.hset(utf8("user:1"), Map.of()))
			.withMessageContaining("HSET needs at least one field")
			.withMessageContaining("user:1");
	}

	@Test
	void shouldRejectExpiryThatIsNotPositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> RedisWrite.expire(utf8("k"), Duration.ZERO))
			.withMessageContaining("ttl must be positive, but was PT0S");
		assertThatIllegalArgumentException().isThrownBy(() -> RedisWrite.expire(utf8("k"), Duration.ofSeconds(-5)))
			.withMessageContaining("PT-5S");
	}

	@Test
	void shouldRejectCommandNameThatIsNotOneWord() {
		assertThatIllegalArgumentException().isThrownBy(() -> RedisWrite.command("SET EX", utf8("k"), utf8("v")))
			.withMessageContaining("command name must be one word, but was 'SET EX'");
		assertThatIllegalArgumentException().isThrownBy(() -> RedisWrite.command(" ", utf8("k")))
			.withMessageContaining("command name must be one word");
	}

	@Test
	void shouldKeepCommandArgumentsInOrder() {
		RedisWrite.Command zadd = RedisWrite.command("ZADD", utf8("scores"), utf8("1.5"), utf8("ann"));

		assertThat(zadd.name()).isEqualTo("ZADD");
		assertThat(zadd.args()).extracting(arg -> new String(arg, StandardCharsets.UTF_8))
			.containsExactly("1.5", "ann");
		assertThat(zadd).hasToString("ZADD scores (2 args)");
	}

	@Test
	void shouldDescribeWritesByCommandAndKey() {
		assertThat(RedisWrite.del(utf8("user:1"))).hasToString("DEL user:1");
		assertThat(RedisWrite.expire(utf8("user:1"), Duration.ofSeconds(30))).hasToString("EXPIRE user:1 PT30S");
		assertThat(RedisWrite.hset("user:1", Map.of("a", "1"))).hasToString("HSET user:1 (1 fields)");
	}

	@Test
	void shouldTellWhichWritesMayBeRepeated() {
		assertThat(RedisWrite.hset("user:1", Map.of("a", "1")).idempotent()).isTrue();
		assertThat(RedisWrite.expire(utf8("user:1"), Duration.ofSeconds(30)).idempotent()).isTrue();
		assertThat(RedisWrite.del(utf8("user:1")).idempotent()).isTrue();
		assertThat(RedisWrite.command("set", utf8("k"), utf8("v")).idempotent()).isTrue();
		assertThat(RedisWrite.command("HDEL", utf8("k"), utf8("f")).idempotent()).isTrue();
		assertThat(RedisWrite.command("INCR", utf8("k")).idempotent()).isFalse();
		assertThat(RedisWrite.command("HINCRBY", utf8("k"), utf8("f"), utf8("1")).idempotent()).isFalse();
		assertThat(RedisWrite.command("ZADD", utf8("k"), utf8("1"), utf8("m")).idempotent()).isFalse();
		assertThat(RedisWrite.idempotentCommand("ZADD", utf8("k"), utf8("1"), utf8("m")).idempotent()).isTrue();
	}

}
