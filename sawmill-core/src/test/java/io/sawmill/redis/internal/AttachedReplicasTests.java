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

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.sawmill.redis.ReplicaShortfallPolicy;
import io.sawmill.testkit.MutableClock;

/**
 * How many replicas a batch waits for on a master short of them, and what the shortfall
 * shows, as the grace passes and a replica attaches again; with an injected clock.
 */
class AttachedReplicasTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	private final MutableClock clock = new MutableClock(START);

	private final AttachedReplicas replicas = new AttachedReplicas(clock);

	@Test
	void shouldWaitForEveryReplicaAskedForDuringTheGraceThenForThoseAttached() {
		PipelineConfig config = config(ReplicaShortfallPolicy.PROCEED);

		assertThat(replicas.attached("10.0.0.1:6379", 0, config))
			.isEqualTo(new ReplicaShortfall("10.0.0.1:6379", 0, 2, START, ReplicaShortfall.State.WAITING));
		clock.advance(Duration.ofSeconds(29));
		assertThat(replicas.toWaitFor("10.0.0.1:6379", config)).isEqualTo(2);
		assertThat(replicas.attached("10.0.0.1:6379", 1, config).state()).isEqualTo(ReplicaShortfall.State.WAITING);

		clock.advance(Duration.ofSeconds(1));

		assertThat(replicas.toWaitFor("10.0.0.1:6379", config)).isEqualTo(1);
		assertThat(replicas.toWaitFor("10.0.0.2:6379", config)).as("a master with enough replicas").isEqualTo(2);
		assertThat(replicas.current())
			.containsExactly(new ReplicaShortfall("10.0.0.1:6379", 1, 2, START, ReplicaShortfall.State.PROCEEDING));
	}

	@Test
	void shouldKeepWaitingForEveryReplicaAskedForPastTheGraceWhenThePolicyIsToRefuse() {
		PipelineConfig config = config(ReplicaShortfallPolicy.REFUSE);
		replicas.attached("master", 0, config);
		clock.advance(Duration.ofSeconds(50));
		replicas.attached("master", 0, config);

		clock.advance(Duration.ofSeconds(50));

		assertThat(replicas.toWaitFor("master", config)).isEqualTo(2);
		assertThat(replicas.current()).extracting(ReplicaShortfall::state)
			.containsExactly(ReplicaShortfall.State.REFUSING);
	}

	@Test
	void shouldClearTheShortfallAndStartTheGraceAfreshOnceEnoughReplicasAttach() {
		PipelineConfig config = config(ReplicaShortfallPolicy.PROCEED);
		replicas.attached("master", 0, config);
		clock.advance(Duration.ofSeconds(40));

		assertThat(replicas.attached("master", 2, config)).isNull();

		assertThat(replicas.isShort("master")).isFalse();
		assertThat(replicas.current()).isEmpty();
		assertThat(replicas.toWaitFor("master", config)).isEqualTo(2);
		assertThat(replicas.attached("master", 1, config).state()).isEqualTo(ReplicaShortfall.State.WAITING);
	}

	@Test
	void shouldForgetAMasterNoBatchWroteToForAMinuteAndStartTheGraceAgainIfOneDoes() {
		PipelineConfig config = config(ReplicaShortfallPolicy.PROCEED);
		replicas.attached("10.0.0.1:6379", 0, config);
		clock.advance(Duration.ofSeconds(45));
		replicas.attached("10.0.0.1:6379", 0, config);

		clock.advance(Duration.ofSeconds(59));
		assertThat(replicas.current()).extracting(ReplicaShortfall::state)
			.as("seen 59 s ago, short for 104 s")
			.containsExactly(ReplicaShortfall.State.PROCEEDING);
		clock.advance(Duration.ofSeconds(2));

		assertThat(replicas.current()).isEmpty();
		assertThat(replicas.isShort("10.0.0.1:6379")).isFalse();
		assertThat(replicas.toWaitFor("10.0.0.1:6379", config)).isEqualTo(2);
		assertThat(replicas.attached("10.0.0.1:6379", 0, config).since()).isEqualTo(clock.instant());
	}

	@Test
	void shouldCountOnlyTheReplicasOnlineInAMastersInfoReplication() {
		String info = "# Replication\r\nrole:master\r\nconnected_slaves:2\r\n"
				+ "slave0:ip=127.0.0.1,port=7001,state=online,offset=1200,lag=0\r\n"
				+ "slave1:ip=127.0.0.1,port=7002,state=wait_bgsave,offset=0,lag=0\r\nmaster_failover_state:no-failover\r\n";

		assertThat(AttachedReplicas.online(info)).isEqualTo(1);
		assertThat(AttachedReplicas.online("# Replication\r\nrole:slave\r\nmaster_port:7000\r\n")).isEqualTo(-1);
	}

	private static PipelineConfig config(ReplicaShortfallPolicy policy) {
		return PipelineConfig.custom()
			.waitForReplicas(2)
			.replicaShortfall(policy)
			.replicaShortfallGrace(Duration.ofSeconds(30))
			.build();
	}

}
