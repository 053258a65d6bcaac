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

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.testkit.RedisClusterProcess;

/**
 * {@code sawmill.delivery=exactly-once} on a Redis Cluster of three masters with one
 * replica each, counted with non-idempotent writes ({@code INCR}, one key per record,
 * keys spread over every master), as {@link ExactlyOnceIT} counts them on one server:
 * <ol>
 * <li>while a backlog drains, a master is SIGKILLed (its replica is promoted, and the
 * killed node comes back as the replica of its successor), then one of the two Sawmill
 * processes is frozen (SIGSTOP) past its session timeout while the other takes its
 * partitions over, and thawed: every counter is exact;</li>
 * <li>the group's offsets are reset to the earliest: every record is written once more,
 * in a new generation of the partitions' watermarks.</li>
 * </ol>
 */
class ExactlyOnceClusterIT {

	private static final int PARTITIONS = CounterScenario.PARTITIONS;

	private static final Duration DRAIN = CounterScenario.DRAIN;

	/** How long the cluster may take to promote a replica of a killed master. */
	private static final Duration PROMOTION = Duration.ofSeconds(30);

	private static RedisClusterProcess cluster;

	private static KafkaServer kafka;

	private static Admin admin;

	private static RedisClusterClient client;

	private static StatefulRedisClusterConnection<String, String> connection;

	@BeforeAll
	static void startServers() {
		cluster = RedisClusterProcess.startNew(1);
		kafka = KafkaServer.start();
		admin = Kafka.admin(kafka.bootstrapServers());
		client = RedisClusterClient
			.create(cluster.ports().stream().map(port -> RedisURI.create(cluster.host(), port)).toList());
		connection = client.connect();
	}

	@AfterAll
	static void stopServers() {
		if (connection != null) {
			connection.close();
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
		ServerShutdown.closeAll(admin, kafka, cluster);
	}

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void shouldCountEveryRecordOnceThroughAMasterKilledMidDrainAndAFrozenProcessThatThaws() throws Exception {
		CounterScenario scenario = new CounterScenario("eos-cluster", 12_000, kafka, cluster, admin, connection.sync());
		Map<String, Object> properties = properties(scenario);
		// one consumer per process: the frozen one's partitions all go to the other
		properties.put("sawmill.concurrency", 1);
		try (SawmillProcess first = scenario.start(properties, "first");
				SawmillProcess second = scenario.start(properties, "second")) {
			CompletableFuture<Void> producing = scenario.produceInBackground(1_000);
			scenario.awaitApplied(first, scenario.records / 10);

			int master = cluster.masters().get(0);
			int replica = cluster.replicaOf(master);
			cluster.kill(master);
			cluster.awaitMaster(replica, PROMOTION);
			cluster.restart(master);
			scenario.awaitApplied(first, scenario.applied() + 500);

			scenario.freezeUntilTakenOver(first, second);

			producing.get(90, TimeUnit.SECONDS);
			scenario.assertCountedOnce(second);
			System.out.printf("exactly-once on a cluster: %d and %d lines of fenced records after the thaw%n",
					first.logLinesContaining("were fenced"), second.logLinesContaining("were fenced"));
		}
	}

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void shouldCountEveryRecordOnceMoreInANewGenerationAfterTheGroupIsResetToTheEarliestOffset() throws Exception {
		CounterScenario scenario = new CounterScenario("eos-cluster-reset", 3_000, kafka, cluster, admin,
				connection.sync());
		scenario.produce(0, scenario.records);
		Map<String, Object> properties = properties(scenario);
		scenario.drainAndResetToEarliest(properties);

		try (SawmillProcess second = scenario.start(properties, "second")) {
			scenario.assertCounted(second, connection.sync(), 2);
			assertThat(second.logLinesContaining("replayed (sawmill.offset-reset=replay)")).isEqualTo(PARTITIONS);
			assertThat(connection.sync().get("sawmill:generation:{" + scenario.group + "}:" + scenario.topic + ":0"))
				.isEqualTo("1");
		}
	}

	private static Map<String, Object> properties(CounterScenario scenario) {
		Map<String, Object> properties = scenario.properties(0);
		properties.put("sawmill.pipeline.timeout", "2s");
		properties.put("sawmill.pipeline.replica-timeout", "500ms");
		properties.put("sawmill.circuit-breaker.open-wait", "1s");
		properties.put("spring.data.redis.lettuce.cluster.refresh.adaptive", true);
		return properties;
	}

}
