package io.sawmill.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.metrics.RedisRoundTripProbe;
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
}
