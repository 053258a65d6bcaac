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
package io.sawmill.doctor.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.sawmill.redis.ReplicaShortfallPolicy;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.testkit.RedisClusterProcess;
import io.sawmill.testkit.RedisSentinelProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * The Redis findings against real redis-servers configured to trigger each of them: a
 * standalone server whose settings each test changes with CONFIG SET (and puts back), a
 * Sentinel-managed master with a replica, and a three-master Cluster.
 */
class RedisFindingsTests {

	static RedisServerProcess redis;
	static LettuceConnectionFactory factory;

	@BeforeAll
	static void startRedis() {
		// save "" and appendonly no: no persistence, no replica
		redis = RedisServerProcess.startNew();
		factory = connect(new RedisStandaloneConfiguration(redis.host(), redis.port()));
	}

	@AfterAll
	static void stopRedis() {
		factory.destroy();
		redis.close();
	}

	@AfterEach
	void restoreDefaults() {
		redis.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
		redis.command("CONFIG", "SET", "maxmemory", "0");
		redis.command("CONFIG", "SET", "appendonly", "no");
		redis.command("CONFIG", "SET", "save", "");
	}

	static LettuceConnectionFactory connect(RedisConfiguration configuration) {
		LettuceConnectionFactory connectionFactory = new LettuceConnectionFactory(configuration);
		connectionFactory.afterPropertiesSet();
		connectionFactory.start();
		return connectionFactory;
	}

	static List<Finding> redisFindings(LettuceConnectionFactory redisFactory, DoctorConfig.Builder config) {
		return Doctor.builder(config.hostRoot(Path.of("/nonexistent")).build())
			.redis(redisFactory)
			.build()
			.examine()
			.findings()
			.stream()
			.filter(f -> f.check().startsWith("redis."))
			.toList();
	}

	static Finding find(List<Finding> findings, String check) {
		return findings.stream().filter(f -> f.check().equals(check)).findFirst().orElseThrow();
	}

	@Test
	void shouldFailAnEvictingPolicyWithAMemoryLimitBecauseItSilentlyDropsWhatSawmillWrote() {
		redis.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
		redis.command("CONFIG", "SET", "maxmemory", "100mb");

		Finding eviction = find(redisFindings(factory, DoctorConfig.custom()), RedisChecks.EVICTION);

		assertThat(eviction.verdict()).isEqualTo(Verdict.FAIL);
		assertThat(eviction.measured()).endsWith("maxmemory-policy allkeys-lru, maxmemory 104857600");
		assertThat(eviction.why()).contains("without an error");
		assertThat(eviction.change()).contains("noeviction");
	}

	@Test
	void shouldWarnAboutAnEvictingPolicyThatHasNoMemoryLimitYet() {
		redis.command("CONFIG", "SET", "maxmemory-policy", "volatile-ttl");

		Finding eviction = find(redisFindings(factory, DoctorConfig.custom()), RedisChecks.EVICTION);

		assertThat(eviction.verdict()).isEqualTo(Verdict.WARN);
		assertThat(eviction.measured()).endsWith("maxmemory-policy volatile-ttl, maxmemory 0");
	}

	@Test
	void shouldAcceptNoEviction() {
		Finding eviction = find(redisFindings(factory, DoctorConfig.custom()), RedisChecks.EVICTION);

		assertThat(eviction.verdict()).isEqualTo(Verdict.OK);
		assertThat(eviction.measured()).endsWith("maxmemory-policy noeviction, maxmemory 0");
	}

	@Test
	void shouldFailWithoutPersistenceWarnWithSnapshotsOnlyAndAcceptAppendOnly() {
		Finding none = find(redisFindings(factory, DoctorConfig.custom()), RedisChecks.PERSISTENCE);
		redis.command("CONFIG", "SET", "save", "3600 1");
		Finding snapshots = find(redisFindings(factory, DoctorConfig.custom()), RedisChecks.PERSISTENCE);
		redis.command("CONFIG", "SET", "appendonly", "yes");
		Finding appendOnly = find(redisFindings(factory, DoctorConfig.custom()), RedisChecks.PERSISTENCE);

		assertThat(none).extracting(Finding::verdict, Finding::measured)
			.containsExactly(Verdict.FAIL, redis.host() + ":" + redis.port() + ": no persistence (AOF off, save '')");
		assertThat(snapshots).extracting(Finding::verdict, Finding::measured)
			.containsExactly(Verdict.WARN,
					redis.host() + ":" + redis.port() + ": RDB snapshots only (AOF off, save '3600 1')");
		assertThat(appendOnly.verdict()).isEqualTo(Verdict.OK);
		assertThat(appendOnly.measured()).contains("AOF on");
	}

	@Test
	void shouldWarnWhenBatchesWaitForMoreReplicasThanAreConnectedAndFailWhenTheyKeepRefusing() {
		Finding proceeding = find(redisFindings(factory, DoctorConfig.custom().waitForReplicas(1)),
				RedisChecks.REPLICAS);
		Finding refusing = find(
				redisFindings(factory, DoctorConfig.custom()
					.waitForReplicas(1)
					.replicaShortfall(PipelineConfig.custom().replicaShortfall(ReplicaShortfallPolicy.REFUSE).build())),
				RedisChecks.REPLICAS);
		Finding notWaiting = find(redisFindings(factory, DoctorConfig.custom()), RedisChecks.REPLICAS);

		assertThat(proceeding.verdict()).isEqualTo(Verdict.WARN);
		assertThat(proceeding.measured())
			.endsWith("role master, 0 connected replica(s), sawmill.pipeline.wait-for-replicas 1");
		assertThat(proceeding.why()).contains("refused for PT30S", "replica-shortfall=proceed");
		assertThat(proceeding.change()).contains("at most 0");
		assertThat(refusing.verdict()).isEqualTo(Verdict.FAIL);
		assertThat(refusing.why()).contains("replica-shortfall=refuse");
		assertThat(notWaiting.verdict()).isEqualTo(Verdict.WARN);
	}

	@Test
	void shouldFindTheSentinelsMasterAndItsReplica() {
		try (RedisSentinelProcess sentinel = RedisSentinelProcess.startNew()) {
			RedisSentinelConfiguration configuration = new RedisSentinelConfiguration()
				.master(RedisSentinelProcess.MASTER_NAME);
			String[] node = sentinel.sentinelNodes().split(":");
			configuration.sentinel(node[0], Integer.parseInt(node[1]));
			LettuceConnectionFactory sentinelFactory = connect(configuration);
			try {
				Finding replicas = find(redisFindings(sentinelFactory, DoctorConfig.custom().waitForReplicas(1)),
						RedisChecks.REPLICAS);

				assertThat(replicas.verdict()).isEqualTo(Verdict.OK);
				assertThat(replicas.measured()).isEqualTo("master sawmill at 127.0.0.1: role master, 1 connected "
						+ "replica(s), sawmill.pipeline.wait-for-replicas 1");
			}
			finally {
				sentinelFactory.destroy();
			}
		}
	}

	@Test
	void shouldExamineEveryMasterOfACluster() {
		try (RedisClusterProcess cluster = RedisClusterProcess.startNew()) {
			LettuceConnectionFactory clusterFactory = connect(new RedisClusterConfiguration(
					cluster.ports().stream().map(port -> cluster.host() + ":" + port).toList()));
			try {
				List<Finding> findings = redisFindings(clusterFactory, DoctorConfig.custom());
				List<Finding> shortGrace = redisFindings(clusterFactory, DoctorConfig.custom()
					.replicaShortfall(PipelineConfig.custom().replicaShortfallGrace(Duration.ofSeconds(5)).build()));

				assertThat(findings).filteredOn(f -> f.check().equals(RedisChecks.RTT)).hasSize(3);
				assertThat(findings).filteredOn(f -> f.check().equals(RedisChecks.SHORTFALL_GRACE))
					.hasSize(3)
					.allSatisfy(f -> assertThat(f.measured())
						.endsWith(": cluster-node-timeout PT5S, sawmill.pipeline.replica-shortfall-grace PT30S"))
					.extracting(Finding::verdict)
					.containsOnly(Verdict.OK);
				assertThat(shortGrace).filteredOn(f -> f.check().equals(RedisChecks.SHORTFALL_GRACE))
					.extracting(Finding::verdict)
					.containsOnly(Verdict.WARN);
				assertThat(findings).filteredOn(f -> f.check().equals(RedisChecks.EVICTION))
					.extracting(Finding::verdict)
					.containsOnly(Verdict.OK);
			}
			finally {
				clusterFactory.destroy();
			}
		}
	}

	@Test
	void shouldReportTheVersionAndTheRoundTripOfAFewPings() {
		List<Finding> findings = redisFindings(factory, DoctorConfig.custom().pings(3));

		assertThat(find(findings, RedisChecks.VERSION).verdict()).isEqualTo(Verdict.OK);
		assertThat(find(findings, RedisChecks.VERSION).measured()).matches(".*: Redis \\d+\\.\\d+\\.\\d+");
		assertThat(find(findings, RedisChecks.RTT).measured()).contains("median").contains("of 3 PINGs");
	}

	@Test
	void shouldFailRedisBefore4AndWarnBefore6() {
		assertThat(RedisChecks.version(node(Map.of("redis_version", "3.2.12"))))
			.extracting(Finding::verdict, Finding::measured)
			.containsExactly(Verdict.FAIL, "old:6379: Redis 3.2.12");
		assertThat(RedisChecks.version(node(Map.of("redis_version", "5.0.14"))).verdict()).isEqualTo(Verdict.WARN);
		assertThat(RedisChecks.version(node(Map.of("redis_version", "7.2.4"))).verdict()).isEqualTo(Verdict.OK);
		assertThat(RedisChecks.version(node(Map.of("redis_version", "unstable"))).verdict()).isEqualTo(Verdict.UNKNOWN);
	}

	@Test
	void shouldWarnWhenTheMasterIsInAnotherZoneAndSayWhatIsMissingWhenAZoneIsUnknown() {
		Finding crossZone = find(
				redisFindings(factory, DoctorConfig.custom().zone("eu-west-1a").redisZone("eu-west-1b")),
				RedisChecks.ZONE);
		Finding unknown = find(redisFindings(factory, DoctorConfig.custom().zone("eu-west-1a")), RedisChecks.ZONE);
		DoctorConfig byHostName = DoctorConfig.custom()
			.zone("eu-west-1b")
			.redisZonePattern("redis-([a-z]+-[a-z]+-\\d[a-z])\\.")
			.build();
		RedisNodeFacts named = new RedisNodeFacts("redis-eu-west-1b.internal:6379", "redis-eu-west-1b.internal",
				List.of(Duration.ofNanos(90_000)), Map.of(), Optional.empty());

		assertThat(crossZone).extracting(Finding::verdict, Finding::measured)
			.containsExactly(Verdict.WARN,
					redis.host() + ":" + redis.port() + ": this pod in eu-west-1a, the master in eu-west-1b");
		assertThat(unknown.verdict()).isEqualTo(Verdict.UNKNOWN);
		assertThat(unknown.change()).contains("sawmill.doctor.redis-zone");
		assertThat(RedisChecks.zone(named, byHostName).verdict()).isEqualTo(Verdict.OK);
	}

	@Test
	void shouldFailWhenRedisDoesNotAnswer() {
		LettuceConnectionFactory nowhere = connect(
				new RedisStandaloneConfiguration("127.0.0.1", RedisServerProcess.freePort()));
		try {
			List<Finding> findings = redisFindings(nowhere, DoctorConfig.custom().timeout(Duration.ofSeconds(20)));

			assertThat(findings).singleElement().satisfies(f -> {
				assertThat(f.check()).isEqualTo(RedisChecks.CONNECTION);
				assertThat(f.verdict()).isEqualTo(Verdict.FAIL);
				assertThat(f.measured()).contains("Connection refused");
			});
		}
		finally {
			nowhere.destroy();
		}
	}

	@Test
	void shouldSayUnknownForWhatARestrictedAclUserMayNotAsk() {
		redis.command("ACL", "SETUSER", "writer", "on", ">writer-pass", "~*", "+@all", "-info", "-config");
		RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(redis.host(), redis.port());
		configuration.setUsername("writer");
		configuration.setPassword("writer-pass");
		LettuceConnectionFactory restricted = connect(configuration);
		try {
			List<Finding> findings = redisFindings(restricted, DoctorConfig.custom());

			assertThat(find(findings, RedisChecks.RTT).measured()).contains("of 5 PINGs");
			assertThat(findings)
				.filteredOn(f -> !f.check().equals(RedisChecks.RTT) && !f.check().equals(RedisChecks.ZONE))
				.extracting(Finding::check, Finding::verdict)
				.containsExactly(tuple(RedisChecks.VERSION, Verdict.UNKNOWN),
						tuple(RedisChecks.EVICTION, Verdict.UNKNOWN), tuple(RedisChecks.PERSISTENCE, Verdict.UNKNOWN),
						tuple(RedisChecks.REPLICAS, Verdict.UNKNOWN));
		}
		finally {
			restricted.destroy();
			redis.command("ACL", "DELUSER", "writer");
		}
	}

	private static RedisNodeFacts node(Map<String, String> info) {
		return new RedisNodeFacts("old:6379", "old", List.of(Duration.ofNanos(100_000)), info, Optional.empty());
	}

}
