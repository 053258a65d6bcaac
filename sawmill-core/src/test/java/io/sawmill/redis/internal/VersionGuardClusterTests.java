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
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.VersionGuard;
import io.sawmill.testkit.RedisClusterProcess;

/**
 * The version guard on the writer's cluster path against a real Redis Cluster of three
 * masters: each call is routed by its key's slot, the library is loaded on every master,
 * and loaded again on them after it was lost.
 */
class VersionGuardClusterTests {

	private static RedisClusterProcess cluster;

	private static RedisClusterClient writerClient;

	private static RedisClusterClient readerClient;

	private static StatefulRedisClusterConnection<String, String> readerConnection;

	private static RedisAdvancedClusterCommands<String, String> reader;

	private static LettucePipelinedWriter writer;

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterProcess.startNew();
		List<RedisURI> seeds = cluster.ports().stream().map(port -> RedisURI.create(cluster.host(), port)).toList();
		writerClient = RedisClusterClient.create(seeds);
		readerClient = RedisClusterClient.create(seeds);
		readerConnection = readerClient.connect();
		reader = readerConnection.sync();
		writer = new LettucePipelinedWriter(() -> writerClient,
				PipelineConfig.custom().timeout(Duration.ofSeconds(10)).build(), false,
				List.of(VersionGuard.librarySource()));
		writer.open(1);
	}

	@AfterAll
	static void stopCluster() throws Exception {
		Teardown.close(writer, readerConnection, readerClient, writerClient, cluster);
	}

	/**
	 * Keys without a hash tag, spread over every master; each written at version 2, then
	 * 1, then 3.
	 */
	private static List<RedisWrite> outOfOrder(List<String> keys) {
		List<RedisWrite> writes = new ArrayList<>();
		for (long version : new long[] { 2, 1, 3 }) {
			for (String key : keys) {
				writes.add(VersionGuard.upsert(utf8(key), version, Duration.ZERO,
						Map.of(utf8("v"), utf8(Long.toString(version)))));
			}
		}
		return writes;
	}

	private static List<String> keys(int count) {
		String prefix = "sawmill-version-cluster:" + UUID.randomUUID() + ":";
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			keys.add(prefix + i);
		}
		return keys;
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	@Test
	void shouldRouteEachCallByItsKeyAndReportTheOlderVersionsAsStale() {
		List<String> keys = keys(30);

		PipelineResult result = writer.write(outOfOrder(keys));

		assertThat(result.succeeded()).isTrue();
		assertThat(result.stale()).hasSize(keys.size()).allSatisfy(index -> assertThat(index).isBetween(30, 59));
		keys.forEach(key -> assertThat(reader.hget(key, "v")).as(key).isEqualTo("3"));
	}

	@Test
	void shouldLoadTheLibraryOnEveryMasterAgainWhenTheyLostIt() {
		List<String> keys = keys(30);
		for (int port : cluster.masters()) {
			cluster.command(port, "FUNCTION", "FLUSH", "SYNC");
		}

		PipelineResult lost = writer.write(outOfOrder(keys));
		PipelineResult retried = writer.write(outOfOrder(keys));

		assertThat(lost.failures()).hasSize(90)
			.allSatisfy(failure -> assertThat(failure.cause()).hasMessageStartingWith("ERR Function not found"));
		assertThat(retried.succeeded()).isTrue();
		keys.forEach(key -> assertThat(reader.hget(key, "v")).as(key).isEqualTo("3"));
	}

}
