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
package io.sawmill.it;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.sawmill.autoconfigure.SawmillConfigurationException;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisServerProcess;

/** Start-up fails fast, saying what to fix, when a server or a topic is missing. */
class StartupFailureIT {

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic("present", 1);

	@Test
	void shouldFailStartUpNamingRedisWhenItCannotBeReached() {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, "present", "no-redis");
		properties.put("spring.data.redis.port", RedisServerProcess.freePort());
		assertThatThrownBy(() -> SawmillApp.run(properties).close())
			.hasRootCauseInstanceOf(java.net.ConnectException.class)
			.satisfies(ex -> org.assertj.core.api.Assertions.assertThat(findSawmill(ex).getMessage())
				.contains("Redis at 127.0.0.1:" + properties.get("spring.data.redis.port")));
	}

	@Test
	void shouldFailStartUpNamingAMissingTopic() {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, "absent", "no-topic");
		assertThatThrownBy(() -> SawmillApp.run(properties).close())
			.satisfies(ex -> org.assertj.core.api.Assertions.assertThat(findSawmill(ex).getMessage())
				.contains("[absent] do not exist"));
	}

	@Test
	void shouldFailStartUpNamingTheMissingKeyTemplate() {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, "present", "no-template");
		properties.remove("sawmill.mapping.key-template");
		assertThatThrownBy(() -> SawmillApp.run(properties).close())
			.satisfies(ex -> org.assertj.core.api.Assertions.assertThat(findSawmill(ex).getMessage())
				.contains("sawmill.mapping.key-template"));
	}

	private static SawmillConfigurationException findSawmill(Throwable ex) {
		for (Throwable t = ex; t != null; t = t.getCause()) {
			if (t instanceof SawmillConfigurationException sawmill) {
				return sawmill;
			}
		}
		throw new AssertionError("no SawmillConfigurationException in " + ex, ex);
	}

}
