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
package io.sawmill.bench.e2e.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.bench.e2e.workload.KeyDistribution;
import io.sawmill.bench.e2e.workload.Route;
import io.sawmill.bench.e2e.workload.Workload;

/**
 * Each route's verification against a real redis-server holding what the route writes for
 * every record in order (written here as the route's commands), then with one thing
 * wrong. Hot keys: many records per id, the last must win.
 */
class RouteVerificationTests {

	private static final int RECORDS = 5_000;

	private static final Duration TTL = Duration.ofHours(1);

	private static final String TOPIC = "routes";

	@RegisterExtension
	static final LocalRedis redis = new LocalRedis();

	private final Workload workload = new Workload(3, 12, 500, KeyDistribution.ZIPF.keys(500, 1.1), true);

	private final Endpoint endpoint = redis.endpoint();

	private RedisAsyncCommands<String, String> async;

	@BeforeEach
	void flush() throws Exception {
		async = redis.async();
		async.flushall().get(10, TimeUnit.SECONDS);
	}

	@Test
	void shouldFindEachStringExactlyItsLastRecord() throws Exception {
		write(seq -> List.of(async.setex(workload.key(workload.id(seq)), TTL.toSeconds(), json(seq))));
		assertOk(Route.STRING, "OK: %,d of %,d keys; 50 of 50 sampled values+TTLs right");

		async.setex(workload.key(0), TTL.toSeconds(), json(olderOf(0))).get(10, TimeUnit.SECONDS);

		assertFailed(Route.STRING, "49 of 50 sampled values+TTLs right; e.g. id 0: ");
	}

	@Test
	void shouldFindEveryIdInTheSortedSetWithItsLastVersionAsScore() throws Exception {
		write(seq -> List.of(async.zadd("board:" + TOPIC, Double.parseDouble(workload.hash(seq).get("version")),
				Long.toString(workload.id(seq))), async.expire("board:" + TOPIC, TTL.toSeconds())));
		assertOk(Route.SORTED_SET,
				"OK: 1 of 1 keys, board:routes holds %,d of %2$,d members; 50 of 50 sampled scores right");

		async.zadd("board:" + TOPIC, 0, "0").get(10, TimeUnit.SECONDS);

		assertFailed(Route.SORTED_SET, "49 of 50 sampled scores right; e.g. id 0: score 0, expected score ");
	}

	@Test
	void shouldFindEveryIdInTheSetAndFailOnAMissingOne() throws Exception {
		write(seq -> List.of(async.sadd("members:" + TOPIC, Long.toString(workload.id(seq))),
				async.expire("members:" + TOPIC, TTL.toSeconds())));
		assertOk(Route.SET,
				"OK: 1 of 1 keys, members:routes holds %,d of %2$,d members; 50 of 50 sampled members right");

		async.srem("members:" + TOPIC, "0").get(10, TimeUnit.SECONDS);

		assertFailed(Route.SET, "members:routes holds");
	}

	@Test
	void shouldFindEachListCappedWithItsLastRecordAtTheHead() throws Exception {
		write(seq -> {
			String key = workload.key(workload.id(seq));
			return List.of(async.lpush(key, json(seq)), async.ltrim(key, 0, Route.LIST_CAP - 1),
					async.expire(key, TTL.toSeconds()));
		});
		assertOk(Route.LIST, "OK: %,d of %,d keys; 50 of 50 sampled list heads+lengths+TTLs right");

		async.rpush(workload.key(0), "an element past the cap").get(10, TimeUnit.SECONDS);

		assertFailed(Route.LIST, "49 of 50 sampled list heads+lengths+TTLs right; e.g. id 0: length 3");
	}

	@Test
	void shouldFindTheStreamsNewestEntryTheLastRecordOfItsId() throws Exception {
		write(seq -> List.of(async.xadd("events:" + TOPIC,
				XAddArgs.Builder.maxlen(Route.STREAM_CAP).approximateTrimming(), workload.hash(seq)),
				async.expire("events:" + TOPIC, TTL.toSeconds())));
		assertOk(Route.STREAM, "OK: 1 of 1 keys, events:routes holds 5,000 entries (5,000 to 5,000), its newest entry "
				+ "the last record of id " + workload.id(RECORDS - 1));

		async.xadd("events:" + TOPIC, workload.hash(olderOf(0))).get(10, TimeUnit.SECONDS);

		assertFailed(Route.STREAM, "events:routes holds 5,001 entries (5,000 to 5,000), its newest entry {");
	}

	@Test
	void shouldFailTheDeleteRouteOnAnyKeyLeft() throws Exception {
		assertThat(verify(Route.DELETE).text()).isEqualTo("OK: 0 keys, expected none");

		async.set(workload.key(0), "left").get(10, TimeUnit.SECONDS);

		assertFailed(Route.DELETE, "FAILED: 1 keys, expected none");
	}

	/** The commands of a route for one record. */
	private interface Commands {

		List<RedisFuture<?>> of(long seq);

	}

	private void write(Commands commands) throws Exception {
		List<RedisFuture<?>> replies = new ArrayList<>();
		for (long seq = 0; seq < RECORDS; seq++) {
			replies.addAll(commands.of(seq));
		}
		for (RedisFuture<?> reply : replies) {
			reply.get(10, TimeUnit.SECONDS);
		}
	}

	private Verification.Result verify(Route route) {
		return RouteVerification.verify(route, endpoint, workload, RECORDS, 50, TTL, TOPIC);
	}

	/** {@code text} with the ids written filled in for each {@code %,d}. */
	private void assertOk(Route route, String text) {
		long keys = workload.written(RECORDS).keys();
		Verification.Result result = verify(route);
		assertThat(result.ok()).as(result.text()).isTrue();
		assertThat(result.text()).startsWith(String.format(text, keys, keys));
	}

	private void assertFailed(Route route, String text) {
		Verification.Result result = verify(route);
		assertThat(result.ok()).as(result.text()).isFalse();
		assertThat(result.text()).startsWith("FAILED").contains(text);
	}

	private String json(long seq) {
		return new String(workload.json(seq), StandardCharsets.US_ASCII);
	}

	/** A record of {@code id} before its last one. */
	private long olderOf(long id) {
		long older = workload.written(RECORDS).lastRecord(id) - 1;
		while (workload.id(older) != id) {
			older--;
		}
		return older;
	}

}
