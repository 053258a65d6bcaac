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
package io.sawmill.health.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.metrics.internal.RedisRoundTripProbe;
import io.sawmill.redis.internal.ReplicaShortfall;
import io.sawmill.testkit.RedisServerProcess;

/** Against a real redis-server, stopped half way. */
class RedisWritePathHealthTests {

	@Test
	void shouldBeUpWithTheRoundTripWhileRedisAnswersAndDownWithTheReasonOnceItIsGone() {
		RedisServerProcess redis = RedisServerProcess.startNew();
		RedisClient client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		try (RedisRoundTripProbe probe = new RedisRoundTripProbe(() -> client, new SimpleMeterRegistry(), "g1",
				Duration.ofSeconds(5), Duration.ofSeconds(2))) {
			RedisWritePathHealth health = new RedisWritePathHealth(probe);

			HealthReport up = health.check();
			assertThat(up.up()).isTrue();
			assertThat(up.details()).containsKey("rttMillis");

			redis.close();
			HealthReport down = health.check();
			assertThat(down.up()).isFalse();
			assertThat(down.details().get("error")).asString().startsWith("Redis did not answer PING");
		}
		finally {
			client.shutdown();
			redis.close();
		}
	}

	@Test
	void shouldListTheMastersShortOfReplicasAndStayUpWhileRedisAnswers() {
		ReplicaShortfall shortfall = new ReplicaShortfall("10.0.0.1:6379", 0, 1, Instant.parse("2030-01-01T00:00:00Z"),
				ReplicaShortfall.State.WAITING);
		RedisServerProcess redis = RedisServerProcess.startNew();
		RedisClient client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		try (RedisRoundTripProbe probe = new RedisRoundTripProbe(() -> client, new SimpleMeterRegistry(), "g1",
				Duration.ofSeconds(5), Duration.ofSeconds(2))) {
			HealthReport report = new RedisWritePathHealth(probe, () -> List.of(shortfall)).check();

			assertThat(report.up()).isTrue();
			assertThat(report.details()).containsEntry("replicaShortfalls", List.of(shortfall.details()));
		}
		finally {
			client.shutdown();
			redis.close();
		}
	}

}
