package io.sawmill.it;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.sawmill.autoconfigure.SawmillConfigurationException;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisServerProcess;

/** Start-up fails fast, saying what to fix, when a server or a topic is missing. */
class StartupFailureIT {

	private static KafkaServer kafka;
	private static RedisServerProcess redis;

	@BeforeAll
	static void startServers() {
		redis = RedisServerProcess.startNew();
		kafka = KafkaServer.start();
		kafka.createTopic("present", 1);
	}

	@AfterAll
	static void stopServers() {
		kafka.close();
		redis.close();
	}

	@Test
	void shouldFailStartUpNamingRedisWhenItCannotBeReached() {
		Map<String, Object> properties = SawmillApp.baseProperties(kafka, redis, "present", "no-redis");
		properties.put("spring.data.redis.port", RedisServerProcess.freePort());
		assertThatThrownBy(() -> SawmillApp.run(properties).close()).hasRootCauseInstanceOf(java.net.ConnectException.class)
			.satisfies(ex -> org.assertj.core.api.Assertions.assertThat(findSawmill(ex).getMessage())
				.contains("Redis at 127.0.0.1:" + properties.get("spring.data.redis.port")));
	}

	@Test
	void shouldFailStartUpNamingAMissingTopic() {
		Map<String, Object> properties = SawmillApp.baseProperties(kafka, redis, "absent", "no-topic");
		assertThatThrownBy(() -> SawmillApp.run(properties).close())
			.satisfies(ex -> org.assertj.core.api.Assertions.assertThat(findSawmill(ex).getMessage())
				.contains("[absent] do not exist"));
	}

	@Test
	void shouldFailStartUpNamingTheMissingKeyTemplate() {
		Map<String, Object> properties = SawmillApp.baseProperties(kafka, redis, "present", "no-template");
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
