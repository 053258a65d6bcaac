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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sawmill.testkit.RedisServerProcess;

/**
 * Partitions vs consumers and {@code client.rack}, from the partition counts Kafka
 * reported (the description itself runs against a real broker in src-it's DoctorIT), and
 * the config's validation.
 */
class KafkaFindingsTests {

	private static final Map<String, Integer> SIX_PARTITIONS = new LinkedHashMap<>();

	static {
		SIX_PARTITIONS.put("orders", 4);
		SIX_PARTITIONS.put("refunds", 2);
	}

	@Test
	void shouldWarnWhenTheGroupHasMoreConsumersThanPartitions() {
		Finding finding = KafkaChecks.partitions(SIX_PARTITIONS,
				DoctorConfig.custom().concurrency(4).replicas(2).build());

		assertThat(finding.verdict()).isEqualTo(Verdict.WARN);
		assertThat(finding.measured())
			.isEqualTo("6 partitions (orders 4, refunds 2) for 8 consumers (sawmill.concurrency 4 x 2 replicas)");
		assertThat(finding.change()).contains("at most 6 consumers");
	}

	@Test
	void shouldAcceptAsManyConsumersAsPartitionsAndSayWhenTheReplicaCountIsUnknown() {
		assertThat(KafkaChecks.partitions(SIX_PARTITIONS, DoctorConfig.custom().concurrency(3).replicas(2).build())
			.verdict()).isEqualTo(Verdict.OK);
		Finding unknown = KafkaChecks.partitions(SIX_PARTITIONS, DoctorConfig.custom().concurrency(3).build());
		assertThat(unknown.verdict()).isEqualTo(Verdict.UNKNOWN);
		assertThat(unknown.change()).contains("sawmill.doctor.replicas");
		// even one instance has more threads than partitions: that much is known without
		// the replica count
		assertThat(KafkaChecks.partitions(SIX_PARTITIONS, DoctorConfig.custom().concurrency(8).build()).verdict())
			.isEqualTo(Verdict.WARN);
	}

	@Test
	void shouldAcceptMoreConsumersThanPartitionsInAShareGroup() {
		Finding finding = KafkaChecks.partitions(SIX_PARTITIONS,
				DoctorConfig.custom().concurrency(4).replicas(2).sharedPartitions(true).build());

		assertThat(finding.verdict()).isEqualTo(Verdict.OK);
		assertThat(finding.measured()).isEqualTo(
				"6 partitions (orders 4, refunds 2) for 8 consumers (sawmill.concurrency 4 x 2 replicas) in a share group");
	}

	@Test
	void shouldWarnWhenClientRackIsUnsetOrNotThisPodsZone() {
		assertThat(KafkaChecks.rack(DoctorConfig.custom().build()).verdict()).isEqualTo(Verdict.WARN);
		assertThat(KafkaChecks.rack(DoctorConfig.custom().zone("eu-west-1a").clientRack("eu-west-1b").build()))
			.extracting(Finding::verdict, Finding::measured)
			.containsExactly(Verdict.WARN, "client.rack eu-west-1b, but this pod runs in eu-west-1a");
		assertThat(
				KafkaChecks.rack(DoctorConfig.custom().zone("eu-west-1a").clientRack("eu-west-1a").build()).verdict())
			.isEqualTo(Verdict.OK);
	}

	@Test
	void shouldFailWhenKafkaDoesNotAnswerWithinTheTimeout() {
		DoctorConfig config = DoctorConfig.custom()
			.topics(List.of("orders"))
			.timeout(Duration.ofSeconds(2))
			.hostRoot(Path.of("/nonexistent"))
			.build();
		Doctor doctor = Doctor.builder(config)
			.kafka(Map.of("bootstrap.servers", "127.0.0.1:" + RedisServerProcess.freePort()))
			.build();

		Finding partitions = doctor.examine()
			.findings()
			.stream()
			.filter(f -> f.check().equals(KafkaChecks.PARTITIONS))
			.findFirst()
			.orElseThrow();

		assertThat(partitions.verdict()).isEqualTo(Verdict.FAIL);
		assertThat(partitions.measured()).isEqualTo("Kafka did not describe the topics: no answer within PT2S");
	}

	@Test
	void shouldRejectBadConfigurationNamingTheValue() {
		assertThatThrownBy(() -> DoctorConfig.custom().replicas(0))
			.hasMessage("replicas must be at least 1, but was 0");
		assertThatThrownBy(() -> DoctorConfig.custom().pings(0))
			.hasMessage("pings must be between 1 and 100, but was 0");
		assertThatThrownBy(() -> DoctorConfig.custom().timeout(Duration.ZERO))
			.hasMessage("timeout must be greater than 0, but was PT0S");
		assertThatThrownBy(() -> DoctorConfig.custom().redisZonePattern("redis-(["))
			.hasMessageStartingWith("redisZonePattern must be a regular expression, but was 'redis-(['");
		assertThatThrownBy(() -> DoctorConfig.custom().redisZonePattern("redis-[a-z]+"))
			.hasMessage("redisZonePattern must have a capturing group for the zone, but was 'redis-[a-z]+'");
	}

}
