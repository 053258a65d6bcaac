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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.sawmill.bench.e2e.workload.Capability;
import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.bench.e2e.workload.KeyDistribution;
import io.sawmill.bench.e2e.workload.Workload;

/**
 * Verification against a real redis-server, with hot keys: many records per key, the last
 * must win.
 */
class VerificationTests {

	private static final int RECORDS = 5_000;

	private static final Duration TTL = Duration.ofHours(1);

	@RegisterExtension
	static final LocalRedis redis = new LocalRedis();

	private final Workload workload = new Workload(3, 12, 500, KeyDistribution.ZIPF.keys(500, 1.1), true);

	private final Endpoint endpoint = redis.endpoint();

	@BeforeEach
	void writeEveryRecordInOrder() throws Exception {
		RedisAsyncCommands<String, String> async = redis.async();
		async.flushall().get(10, TimeUnit.SECONDS);
		List<RedisFuture<?>> replies = new ArrayList<>();
		for (long seq = 0; seq < RECORDS; seq++) {
			String key = workload.key(workload.id(seq));
			replies.add(async.hset(key, workload.hash(seq)));
			replies.add(async.expire(key, TTL.toSeconds()));
		}
		for (RedisFuture<?> reply : replies) {
			reply.get(10, TimeUnit.SECONDS);
		}
	}

	@Test
	void shouldFindTheLastRecordOfAKeyThatManyRecordsWrote() {
		Workload.Written written = workload.written(RECORDS);

		Verification.Result result = Verification.verify(endpoint, workload, RECORDS, 50, TTL);

		assertThat(written.hottest()).isZero();
		assertThat(written.hottestRecords()).isGreaterThan(RECORDS / 10);
		assertThat(written.keys()).isLessThan(500);
		assertThat(result.ok()).as(result.text()).isTrue();
		assertThat(result.text())
			.startsWith(String.format("OK: %,d of %,d keys; 50 of 50", written.keys(), written.keys()));
	}

	@Test
	void shouldFailWhenTheHotKeyHoldsAnOlderRecord() throws Exception {
		Workload.Written written = workload.written(RECORDS);
		long older = written.lastRecord(0) - 1;
		while (workload.id(older) != 0) {
			older--;
		}
		redis.async().hset(workload.key(0), workload.hash(older)).get(10, TimeUnit.SECONDS);

		Verification.Result result = Verification.verify(endpoint, workload, RECORDS, 50, TTL);

		assertThat(result.ok()).isFalse();
		assertThat(result.text()).contains("49 of 50 sampled hashes+TTLs right; e.g. rec:0 = ")
			.contains("version=" + workload.hash(older).get("version"));
	}

	@Test
	void shouldTolerateACapabilitysBookkeepingOnlyWhenAskedTo() throws Exception {
		redis.async().set("rec:0:version", "7").get(10, TimeUnit.SECONDS);
		redis.async().hset(workload.key(0), Map.of("_version", "7")).get(10, TimeUnit.SECONDS);

		Verification.Result strict = Verification.verify(endpoint, workload, RECORDS, 50, TTL);
		Verification.Result tolerant = Verification.verify(endpoint, workload, RECORDS, 50, TTL,
				Capability.Extras.BOOKKEEPING);

		assertThat(strict.ok()).isFalse();
		assertThat(tolerant.ok()).as(tolerant.text()).isTrue();
		assertThat(tolerant.text()).contains("keys (+1 other keys, e.g. rec:0:version)")
			.contains("50 of 50 sampled hashes+TTLs right (1 with other fields, e.g. _version)");
	}

}
