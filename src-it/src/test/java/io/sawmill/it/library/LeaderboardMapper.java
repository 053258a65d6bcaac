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
package io.sawmill.it.library;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RecordMappingException;
import io.sawmill.mapping.RedisWrite;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * docs/mapping.md's example of a custom mapping: score events
 * {@code {"player":"p7","score":42}}, keyed by the player's id, become the player's
 * latest event ({@code SET player:<id> <value> EX 3600}) and the player's place on a
 * leaderboard ({@code ZADD leaderboard <score> <id>}). A tombstone removes both.
 * Thread-safe: Jackson's mapper is, and nothing else is shared.
 */
public final class LeaderboardMapper implements RecordMapper {

	private static final byte[] LEADERBOARD = utf8("leaderboard");

	private final ObjectMapper json = JsonMapper.builder().build();

	@Override
	public List<RedisWrite> map(ConsumerRecord<byte[], byte[]> record) {
		if (record.key() == null) {
			throw new RecordMappingException("record has no key (the player's id)");
		}
		byte[] player = record.key();
		byte[] key = utf8("player:" + new String(player, StandardCharsets.UTF_8));
		if (record.value() == null) {
			return List.of(RedisWrite.del(key), RedisWrite.command("ZREM", LEADERBOARD, player));
		}
		JsonNode score;
		try {
			score = json.readTree(record.value()).get("score");
		}
		catch (JacksonException ex) {
			throw new RecordMappingException("value is not valid JSON: " + ex.getOriginalMessage(), ex);
		}
		if (score == null || !score.isIntegralNumber()) {
			throw new RecordMappingException("score is missing or not a whole number");
		}
		return List.of(RedisWrite.command("SET", key, record.value(), utf8("EX"), utf8("3600")),
				RedisWrite.command("ZADD", LEADERBOARD, utf8(Long.toString(score.longValue())), player));
	}

	private static byte[] utf8(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

}
