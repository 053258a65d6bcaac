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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.sawmill.mapping.VersionGuard;
import io.sawmill.testkit.RedisServerProcess;

/**
 * {@code sawmill_apply} against a real redis-server leaves what {@code sawmill_upsert}
 * and {@code sawmill_delete} called one write at a time leave, and replies what they
 * reply: random sequences of upserts and deletes (equal, newer and older versions, TTLs,
 * tombstone markers, invalid versions) over a few keys in every starting state (absent, a
 * hash without a version, a versioned hash with and without a TTL, a marker, a string),
 * applied once each way to two copies of the keys. A seeded generator, so a failure names
 * the trial that shows it.
 */
class ApplyEquivalenceTests {

	private static final long SEED = 0x5a3d_1e11L;

	private static final int TRIALS = 400;

	private static final String[] FIELDS = { "f1", "f2", "f3" };

	private static final long[] TTLS = { 0, 100_000, 200_000 };

	private static final long[] RETENTIONS = { 0, 300_000 };

	private static RedisServerProcess redis;

	private static RedisClient client;

	private static StatefulRedisConnection<String, String> connection;

	private static RedisCommands<String, String> commands;

	@BeforeAll
	static void startRedis() {
		redis = RedisServerProcess.startNew();
		client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		connection = client.connect();
		commands = connection.sync();
		commands.functionLoad(VersionGuard.librarySource(), true);
	}

	@AfterAll
	static void stopRedis() throws Exception {
		Teardown.close(connection, client, redis);
	}

	/**
	 * One write: an upsert ({@code fields} not empty) or a delete, of key number
	 * {@code key}.
	 */
	private record Write(int key, String version, long ttl, List<String> fields) {

		boolean upsert() {
			return !fields.isEmpty();
		}

		List<String> args() {
			List<String> args = new ArrayList<>(List.of(version, Long.toString(ttl)));
			args.addAll(fields);
			return args;
		}
	}

	@Test
	void shouldLeaveTheStateAndGiveTheRepliesOfTheWritesOneByOne() {
		Random random = new Random(SEED);
		for (int trial = 0; trial < TRIALS; trial++) {
			int keyCount = 1 + random.nextInt(4);
			List<Write> writes = writes(random, keyCount, 1 + random.nextInt(24));
			for (int key = 0; key < keyCount; key++) {
				startingState(random.nextInt(6), random.nextInt(4), "one:" + trial + ":" + key,
						"all:" + trial + ":" + key);
			}

			List<Object> oneByOne = new ArrayList<>();
			for (Write write : writes) {
				oneByOne.add(call(write.upsert() ? VersionGuard.UPSERT : VersionGuard.DELETE,
						new String[] { "one:" + trial + ":" + write.key() }, write.args()));
			}
			List<Object> applied = apply("all:" + trial + ":", writes, random);

			String what = "trial " + trial + ": " + writes;
			assertThat(applied).as(what).isEqualTo(oneByOne);
			for (int key = 0; key < keyCount; key++) {
				assertSameState("one:" + trial + ":" + key, "all:" + trial + ":" + key, what);
			}
		}
	}

	@Test
	void shouldRefuseATtlOrRetentionThatIsNotADecimalIntegerAndLeaveTheKeyAsItWas() {
		commands.hset("malformed", Map.of(VersionGuard.VERSION_FIELD, "1", "f1", "kept"));
		for (String ttl : List.of("1e3", "-5", "007", " 5", "1.5", "0x10", "")) {
			assertThat(call(VersionGuard.UPSERT, new String[] { "malformed" }, List.of("2", ttl, "f1", "new")))
				.as("TTL '%s'", ttl)
				.isEqualTo("ERR sawmill_upsert: expects version, ttl millis and field value pairs");
			assertThat(call(VersionGuard.DELETE, new String[] { "malformed" }, List.of("2", ttl)))
				.as("retention '%s'", ttl)
				.isEqualTo("ERR sawmill_delete: expects version and retention millis");
		}
		assertThat(commands.hgetall("malformed")).isEqualTo(Map.of(VersionGuard.VERSION_FIELD, "1", "f1", "kept"));
		assertThat(commands.pttl("malformed")).isEqualTo(-1);
	}

	private static List<Write> writes(Random random, int keyCount, int count) {
		List<Write> writes = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			int key = random.nextInt(keyCount);
			String version = random.nextInt(40) == 0 ? "x" : Integer.toString(random.nextInt(6));
			if (random.nextInt(4) == 0) {
				writes.add(new Write(key, version, RETENTIONS[random.nextInt(RETENTIONS.length)], List.of()));
			}
			else {
				List<String> fields = new ArrayList<>();
				for (int f = 0, n = 1 + random.nextInt(2); f < n; f++) {
					fields.add(FIELDS[random.nextInt(FIELDS.length)]);
					fields.add("v" + i + "." + f);
				}
				writes.add(new Write(key, version, TTLS[random.nextInt(TTLS.length)], fields));
			}
		}
		return writes;
	}

	/** The same starting state under both names. */
	private static void startingState(int kind, int version, String... keys) {
		for (String key : keys) {
			switch (kind) {
				case 0 -> {
					// absent
				}
				case 1 -> commands.hset(key, Map.of("f1", "unversioned", "old", "o"));
				case 2 ->
					commands.hset(key, Map.of(VersionGuard.VERSION_FIELD, Integer.toString(version), "f2", "kept"));
				case 3 -> {
					commands.hset(key, Map.of(VersionGuard.VERSION_FIELD, Integer.toString(version), "f3", "ttl"));
					commands.pexpire(key, 400_000);
				}
				case 4 -> {
					commands.hset(key, VersionGuard.VERSION_FIELD, Integer.toString(version));
					commands.pexpire(key, 500_000);
				}
				default -> commands.set(key, "a string");
			}
		}
	}

	/**
	 * The writes as {@code sawmill_apply} calls of random lengths, their replies in
	 * order.
	 */
	private static List<Object> apply(String prefix, List<Write> writes, Random random) {
		List<Object> replies = new ArrayList<>();
		for (int from = 0; from < writes.size();) {
			int to = Math.min(writes.size(), from + 1 + random.nextInt(writes.size()));
			List<Write> call = writes.subList(from, to);
			String[] keys = new String[call.size()];
			List<String> args = new ArrayList<>();
			for (int i = 0; i < call.size(); i++) {
				Write write = call.get(i);
				keys[i] = prefix + write.key();
				List<String> own = write.args();
				args.add(write.upsert() ? "u" : "d");
				args.add(Integer.toString(own.size()));
				args.addAll(own);
			}
			Object reply = call(VersionGuard.APPLY, keys, args);
			assertThat(reply).as("the reply to " + call).isInstanceOf(List.class);
			replies.addAll((List<?>) reply);
			from = to;
		}
		return replies;
	}

	/**
	 * The reply: the integer, the list ({@code sawmill_apply}), or the error's message
	 * without the place in the script that Redis appends to an error a single-key
	 * function raised.
	 */
	private static Object call(String function, String[] keys, List<String> args) {
		try {
			List<Object> reply = commands.fcall(function, ScriptOutputType.MULTI, keys, args.toArray(String[]::new));
			return VersionGuard.APPLY.equals(function) ? reply : reply.get(0);
		}
		catch (RedisCommandExecutionException ex) {
			return ex.getMessage().replaceFirst(" script: .*$", "");
		}
	}

	private static void assertSameState(String one, String all, String what) {
		String type = commands.type(one);
		assertThat(commands.type(all)).as("type of %s, %s", all, what).isEqualTo(type);
		if ("hash".equals(type)) {
			assertThat(commands.hgetall(all)).as("fields of %s, %s", all, what).isEqualTo(commands.hgetall(one));
		}
		long ttl = commands.pttl(one);
		long applied = commands.pttl(all);
		if (ttl < 0) {
			assertThat(applied).as("TTL of %s, %s", all, what).isEqualTo(ttl);
		}
		else {
			assertThat(applied).as("TTL of %s, %s", all, what).isBetween(ttl - 5_000, ttl + 5_000);
		}
	}

}
