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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.lettuce.core.api.sync.RedisCommands;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.VersionGuard;

/**
 * The version guard's Redis Functions ({@link VersionGuard}) through the writer's
 * standalone path against a real redis-server: what each version does to the hash, and
 * which replies the writer reports as stale.
 */
class VersionGuardWriterTests {

	private static final Duration NO_TTL = Duration.ZERO;

	@RegisterExtension
	static final StandaloneRedis redis = new StandaloneRedis();

	private static RedisCommands<String, String> reader;

	private String key;

	@BeforeAll
	static void reader() {
		reader = redis.reader();
	}

	@BeforeEach
	void uniqueKey() {
		key = "sawmill-version-test:" + UUID.randomUUID();
	}

	private LettucePipelinedWriter openWriter() {
		return redis.openWriter(PipelineConfig.custom().timeout(Duration.ofSeconds(10)).build(),
				List.of(VersionGuard.librarySource()));
	}

	private RedisWrite upsert(long version, Duration ttl, String... fieldsAndValues) {
		Map<byte[], byte[]> fields = new LinkedHashMap<>();
		for (int i = 0; i < fieldsAndValues.length; i += 2) {
			fields.put(utf8(fieldsAndValues[i]), utf8(fieldsAndValues[i + 1]));
		}
		return VersionGuard.upsert(utf8(key), version, ttl, fields);
	}

	private RedisWrite delete(long version, Duration retention) {
		return VersionGuard.delete(utf8(key), version, retention);
	}

	private static RedisWrite upsertOf(String key, long version, String field, String value) {
		return VersionGuard.upsert(utf8(key), version, NO_TTL, Map.of(utf8(field), utf8(value)));
	}

	/** How many FCALLs Redis has run since it started, from INFO commandstats. */
	private static long functionCalls() {
		String stats = reader.info("commandstats");
		Matcher calls = Pattern.compile("cmdstat_fcall:calls=(\\d+)").matcher(stats);
		return calls.find() ? Long.parseLong(calls.group(1)) : 0;
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	@Test
	void shouldApplyNewerAndEqualVersionsAndReportAnOlderOneAsStale() {
		LettucePipelinedWriter writer = openWriter();

		PipelineResult result = writer
			.write(List.of(upsert(5, NO_TTL, "name", "five", "city", "Oslo"), upsert(5, NO_TTL, "name", "five again"),
					upsert(4, NO_TTL, "name", "four"), upsert(6, Duration.ofMinutes(1), "name", "six")));

		assertThat(result.succeeded()).isTrue();
		assertThat(result.stale()).containsExactly(2);
		assertThat(reader.hgetall(key))
			.containsExactlyInAnyOrderEntriesOf(Map.of(VersionGuard.VERSION_FIELD, "6", "name", "six", "city", "Oslo"));
		assertThat(reader.pttl(key)).isBetween(1L, 60_000L);
	}

	@Test
	void shouldCompareVersionsAsNumbersOverTheWholeLongRange() {
		LettucePipelinedWriter writer = openWriter();

		PipelineResult result = writer
			.write(List.of(upsert(9, NO_TTL, "v", "9"), upsert(10, NO_TTL, "v", "10"), upsert(9, NO_TTL, "v", "9 late"),
					upsert(Long.MAX_VALUE, NO_TTL, "v", "max"), upsert(Long.MAX_VALUE - 1, NO_TTL, "v", "max - 1")));

		assertThat(result.stale()).containsExactly(2, 4);
		assertThat(reader.hget(key, "v")).isEqualTo("max");
		assertThat(reader.hget(key, VersionGuard.VERSION_FIELD)).isEqualTo(Long.toString(Long.MAX_VALUE));
	}

	@Test
	void shouldKeepADeletedKeysVersionForTheRetentionSoThatALateOlderRecordStaysDeleted() {
		LettucePipelinedWriter writer = openWriter();

		PipelineResult result = writer.write(List.of(upsert(1, Duration.ofHours(1), "name", "one"),
				delete(3, Duration.ofMinutes(1)), upsert(2, NO_TTL, "name", "two"), delete(2, Duration.ofMinutes(1))));

		assertThat(result.stale()).containsExactly(2, 3);
		assertThat(reader.hgetall(key)).containsExactly(Map.entry(VersionGuard.VERSION_FIELD, "3"));
		assertThat(reader.pttl(key)).isBetween(1L, 60_000L);
	}

	@Test
	void shouldRecreateADeletedKeyWithoutTheMarkersTtlWhenANewerVersionComes() {
		LettucePipelinedWriter writer = openWriter();

		PipelineResult result = writer.write(List.of(upsert(1, NO_TTL, "name", "one", "city", "Oslo"),
				delete(3, Duration.ofMinutes(1)), upsert(4, NO_TTL, "name", "four")));

		assertThat(result.stale()).isEmpty();
		assertThat(reader.hgetall(key))
			.containsExactlyInAnyOrderEntriesOf(Map.of(VersionGuard.VERSION_FIELD, "4", "name", "four"));
		assertThat(reader.pttl(key)).isEqualTo(-1L);
	}

	@Test
	void shouldGiveAKeyRecreatedOverAMarkerItsOwnTtl() {
		LettucePipelinedWriter writer = openWriter();

		PipelineResult result = writer.write(List.of(upsert(1, NO_TTL, "name", "one"), delete(3, Duration.ofMinutes(1)),
				upsert(4, Duration.ofHours(1), "name", "four")));

		assertThat(result.stale()).isEmpty();
		assertThat(reader.hgetall(key))
			.containsExactlyInAnyOrderEntriesOf(Map.of(VersionGuard.VERSION_FIELD, "4", "name", "four"));
		assertThat(reader.pttl(key)).isGreaterThan(Duration.ofMinutes(59).toMillis());
	}

	@Test
	void shouldDeleteWithoutAMarkerWhenTheRetentionIsZero() {
		LettucePipelinedWriter writer = openWriter();

		PipelineResult result = writer.write(List.of(upsert(1, NO_TTL, "name", "one"), delete(2, Duration.ZERO),
				upsert(1, NO_TTL, "name", "one again")));

		assertThat(result.stale()).isEmpty();
		assertThat(reader.hgetall(key)).containsEntry("name", "one again");
	}

	@Test
	void shouldTakeAnyVersionOverAHashWrittenWithoutOne() {
		reader.hset(key, Map.of("name", "unversioned", "city", "Oslo"));
		LettucePipelinedWriter writer = openWriter();

		PipelineResult result = writer.write(List.of(upsert(0, NO_TTL, "name", "zero")));

		assertThat(result.stale()).isEmpty();
		assertThat(reader.hgetall(key)).containsExactlyInAnyOrderEntriesOf(
				Map.of(VersionGuard.VERSION_FIELD, "0", "name", "zero", "city", "Oslo"));
	}

	@Test
	void shouldFailPermanentlyWhenTheKeyHoldsAnotherType() {
		reader.set(key, "a string");
		LettucePipelinedWriter writer = openWriter();

		PipelineResult result = writer.write(List.of(upsert(1, NO_TTL, "name", "one")));

		assertThat(result.failures()).singleElement()
			.satisfies(failure -> assertThat(FailureClass.of(failure.cause())).isEqualTo(FailureClass.PERMANENT));
	}

	@Test
	void shouldLoadTheLibraryAgainWhenRedisLostItSoThatTheRetrySucceeds() {
		LettucePipelinedWriter writer = openWriter();
		reader.functionFlush(io.lettuce.core.FlushMode.SYNC);

		PipelineResult lost = writer.write(List.of(upsert(1, NO_TTL, "name", "one")));
		PipelineResult retried = writer.write(List.of(upsert(1, NO_TTL, "name", "one")));

		assertThat(lost.failures()).singleElement().satisfies(failure -> {
			assertThat(failure.cause()).hasMessageStartingWith("ERR Function not found");
			assertThat(FailureClass.of(failure.cause())).isEqualTo(FailureClass.TRANSIENT);
		});
		assertThat(retried.succeeded()).isTrue();
		assertThat(reader.hget(key, "name")).isEqualTo("one");
	}

	@Test
	void shouldSendARunOfGuardedWritesAsOneCallWhoseWritesKeepTheirOwnOutcomes() {
		String other = key + ":other";
		String wrongType = key + ":string";
		reader.set(wrongType, "a string");
		reader.hset(other, Map.of(VersionGuard.VERSION_FIELD, "7", "name", "seven"));
		LettucePipelinedWriter writer = openWriter();
		long before = functionCalls();

		PipelineResult result = writer.write(List.of(upsertOf(key, 1, "name", "one"),
				upsertOf(wrongType, 1, "name", "x"), upsertOf(other, 6, "name", "six"), upsertOf(key, 2, "name", "two"),
				delete(3, Duration.ofMinutes(1))));

		assertThat(functionCalls() - before).isEqualTo(1);
		assertThat(result.failures()).singleElement().satisfies(failure -> {
			assertThat(failure.index()).isEqualTo(1);
			assertThat(failure.cause()).hasMessageStartingWith("WRONGTYPE");
			assertThat(FailureClass.of(failure.cause())).isEqualTo(FailureClass.PERMANENT);
		});
		assertThat(result.stale()).containsExactly(2);
		assertThat(reader.hgetall(key)).containsExactly(Map.entry(VersionGuard.VERSION_FIELD, "3"));
		assertThat(reader.hget(other, "name")).isEqualTo("seven");
		assertThat(reader.get(wrongType)).isEqualTo("a string");
	}

	@Test
	void shouldKeepTheOrderOfAKeysWritesWhenAnotherWriteBreaksTheRun() {
		LettucePipelinedWriter writer = openWriter();
		long before = functionCalls();

		PipelineResult result = writer.write(List.of(upsertOf(key, 1, "name", "one"), upsertOf(key, 1, "city", "Oslo"),
				RedisWrite.hset(utf8(key), Map.of(utf8("name"), utf8("unguarded"))), upsertOf(key, 2, "name", "two"),
				RedisWrite.hset(utf8(key), Map.of(utf8("note"), utf8("last")))));

		assertThat(result.succeeded()).isTrue();
		assertThat(functionCalls() - before).isEqualTo(2);
		assertThat(reader.hgetall(key)).containsExactlyInAnyOrderEntriesOf(
				Map.of(VersionGuard.VERSION_FIELD, "2", "name", "two", "city", "Oslo", "note", "last"));
	}

	@Test
	void shouldSplitALongRunIntoCallsOfAtMostTheirLimit() {
		List<RedisWrite> writes = new ArrayList<>();
		int count = 2 * ApplySlot.MAX_WRITES + 5;
		for (int i = 0; i < count; i++) {
			writes.add(upsertOf(key + ":" + i, i, "n", Integer.toString(i)));
		}
		LettucePipelinedWriter writer = openWriter();
		long before = functionCalls();

		PipelineResult result = writer.write(writes);

		assertThat(result.succeeded()).isTrue();
		assertThat(functionCalls() - before).isEqualTo(3);
		for (int i = 0; i < count; i++) {
			assertThat(reader.hget(key + ":" + i, "n")).isEqualTo(Integer.toString(i));
		}
	}

	@Test
	void shouldFailEveryWriteOfACallWhoseFunctionRedisLostAsTransient() {
		LettucePipelinedWriter writer = openWriter();
		reader.functionFlush(io.lettuce.core.FlushMode.SYNC);
		List<RedisWrite> writes = List.of(upsertOf(key, 1, "name", "one"), upsertOf(key + ":b", 1, "name", "b"),
				delete(2, Duration.ofMinutes(1)));

		PipelineResult lost = writer.write(writes);
		PipelineResult retried = writer.write(writes);

		assertThat(lost.failures()).extracting(PipelineResult.Failure::index).containsExactly(0, 1, 2);
		assertThat(lost.failures()).allSatisfy(failure -> {
			assertThat(failure.cause()).hasMessageStartingWith("ERR Function not found");
			assertThat(FailureClass.of(failure.cause())).isEqualTo(FailureClass.TRANSIENT);
		});
		assertThat(retried.succeeded()).isTrue();
		assertThat(reader.hgetall(key)).containsExactly(Map.entry(VersionGuard.VERSION_FIELD, "2"));
		assertThat(reader.hget(key + ":b", "name")).isEqualTo("b");
	}

}
