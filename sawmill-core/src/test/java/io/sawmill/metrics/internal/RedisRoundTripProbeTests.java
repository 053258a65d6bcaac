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
package io.sawmill.metrics.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.testkit.RedisServerProcess;

/** Against a real redis-server. */
class RedisRoundTripProbeTests {

	private static RedisServerProcess redis;

	private static RedisClient client;

	@BeforeAll
	static void startRedis() {
		redis = RedisServerProcess.startNew();
		client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
	}

	@AfterAll
	static void stopRedis() {
		client.shutdown();
		redis.close();
	}

	@Test
	void shouldRecordEachPingInTheGaugeAndTheHistogram() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		try (RedisRoundTripProbe probe = new RedisRoundTripProbe(() -> client, registry, "g1", Duration.ofSeconds(5),
				Duration.ofSeconds(5))) {
			Duration first = probe.ping();
			probe.ping();

			assertThat(first).isPositive();
			assertThat(registry.get("sawmill.redis.ping.duration").tag("group", "g1").timer().count()).isEqualTo(2);
			double gauge = registry.get("sawmill.redis.rtt").tag("group", "g1").gauge().value();
			assertThat(gauge).isPositive().isEqualTo(probe.lastRoundTripSeconds());
			assertThat(probe.lastError()).isNull();
		}
	}

	@Test
	void shouldFailWithTheReasonAndShowNoStaleRttWhenRedisCannotBeReached() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		RedisClient nowhere = RedisClient.create(RedisURI.create("127.0.0.1", RedisServerProcess.freePort()));
		try (RedisRoundTripProbe probe = new RedisRoundTripProbe(() -> nowhere, registry, "g1", Duration.ofSeconds(5),
				Duration.ofSeconds(2))) {
			assertThatIllegalStateException().isThrownBy(probe::ping)
				.withMessageStartingWith("Redis did not answer PING");

			assertThat(registry.get("sawmill.redis.rtt").gauge().value()).isNaN();
			assertThat(probe.lastError()).isNotBlank();
		}
		finally {
			nowhere.shutdown();
		}
	}

	@Test
	void shouldRejectANonPositiveInterval() {
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> new RedisRoundTripProbe(() -> client, new SimpleMeterRegistry(), "g1", Duration.ZERO,
					Duration.ofSeconds(1)))
			.withMessage("interval must be greater than 0, but was PT0S");
	}

}
