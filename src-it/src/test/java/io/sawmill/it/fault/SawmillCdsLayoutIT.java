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
package io.sawmill.it.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;

/**
 * The start-up layout the build packages ({@code sawmill-app/target/sawmill-app}: the
 * extracted jar and the CDS archive of its start-up classes), run the way README.md
 * starts it, is the same service: it starts with the archive mapped ({@code -Xshare:on}
 * refuses to start otherwise), writes every key's last version with its TTL, commits
 * every offset, and stops on SIGTERM. So is the layout with the JDK AOT cache a build on
 * Java 25 writes ({@code -XX:AOTMode=on} likewise refuses to start without it).
 */
class SawmillCdsLayoutIT {

	private static final String TOPIC = "cds-layout";

	private static final String GROUP = "cds-layout";

	private static final int PARTITIONS = 3;

	private static final VersionedEvents EVENTS = new VersionedEvents(5_000, 1_000);

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, PARTITIONS).andTopic(TOPIC + ".DLT", PARTITIONS);

	@Test
	@Timeout(value = 4, unit = TimeUnit.MINUTES)
	void shouldWriteEveryRecordAndCommitEveryOffsetWhenStartedWithTheCdsArchive() throws Exception {
		drainWith(SawmillProcess::startFromCdsLayout, "cds");
	}

	@Test
	@Timeout(value = 4, unit = TimeUnit.MINUTES)
	void shouldWriteEveryRecordAndCommitEveryOffsetWhenStartedWithTheAotCache() throws Exception {
		assumeTrue(SawmillProcess.aotCacheBuilt(), "the AOT cache is written by a build on Java 25 or later");
		drainWith(SawmillProcess::startFromAotCache, "aot");
	}

	private void drainWith(BiFunction<Map<String, Object>, Path, SawmillProcess> start, String variant)
			throws Exception {
		String group = GROUP + "-" + variant;
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, group);
		properties.put("sawmill.concurrency", 2);
		try (RedisClient client = RedisClient.create(RedisURI.create(servers.redis().host(), servers.redis().port()));
				StatefulRedisConnection<String, String> connection = client.connect()) {
			// this class's own redis-server: the other variant's keys must not count
			connection.sync().flushall();
		}
		EVENTS.produce(servers.kafka().bootstrapServers(), TOPIC, 0, EVENTS.records());
		try (RedisReadBack readBack = RedisReadBack.of(RedisURI.create(servers.redis().host(), servers.redis().port()));
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers());
				SawmillProcess sawmill = start.apply(properties,
						FaultAssertions.target("startup-logs").resolve(variant + "-layout.log"))) {
			try {
				Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
				await("every offset committed").atMost(Duration.ofSeconds(150))
					.pollInterval(Duration.ofMillis(250))
					.failFast("the JVM exited (the archive or cache could not be used?)", () -> !sawmill.isAlive())
					.ignoreExceptions()
					.until(() -> FaultAssertions.uncommitted(admin, group, end) == 0);
				assertThat(readBack.verify(EVENTS, FaultAssertions.TTL).allVerified())
					.as("every key at its last version, with the TTL")
					.isTrue();
				assertThat(sawmill.terminate()).as("stops on SIGTERM").isLessThan(Duration.ofSeconds(30));
			}
			catch (AssertionError | RuntimeException ex) {
				throw new AssertionError(ex.getMessage() + "\n--- Sawmill's log:\n" + sawmill.logTail(), ex);
			}
		}
	}

}
