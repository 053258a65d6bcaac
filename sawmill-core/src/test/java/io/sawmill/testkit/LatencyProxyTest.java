package io.sawmill.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;

/** The latency proxy in front of a real redis-server: delay applied both ways, bytes unchanged and in order. */
class LatencyProxyTest {

	private static RedisServerProcess redis;

	@BeforeAll
	static void startRedis() {
		redis = RedisServerProcess.startNew();
	}

	@AfterAll
	static void stopRedis() {
		redis.close();
	}

	@Test
	void shouldDelayEachRoundTripByTwiceTheOneWayDelay() {
		try (LatencyProxy proxy = LatencyProxy.start(redis.host(), redis.port(), Duration.ofMillis(5))) {
			withRedis(proxy, redis -> {
				redis.ping();
				long started = System.nanoTime();
				for (int i = 0; i < 5; i++) {
					redis.ping();
				}
				Duration perRoundTrip = Duration.ofNanos((System.nanoTime() - started) / 5);
				assertThat(perRoundTrip).isBetween(Duration.ofMillis(10), Duration.ofMillis(60));
			});
			LatencyProxy.Stats stats = proxy.stats();
			assertThat(stats.connections()).isEqualTo(1);
			assertThat(stats.chunks()).isGreaterThanOrEqualTo(12);
			assertThat(stats.bytesToTarget()).isPositive();
			assertThat(stats.bytesFromTarget()).isPositive();
		}
	}

	@Test
	void shouldForwardLargePipelinedPayloadsUnchangedAndInOrder() {
		byte[] value = new byte[3 * 1024 * 1024 + 17];
		new Random(42).nextBytes(value);
		try (LatencyProxy proxy = LatencyProxy.start(redis.host(), redis.port(), Duration.ofMillis(1))) {
			withRedis(proxy, redis -> {
				for (int i = 0; i < 50; i++) {
					redis.set(("k" + i).getBytes(), Integer.toString(i).getBytes());
				}
				redis.set("big".getBytes(), value);
				assertThat(redis.get("big".getBytes())).isEqualTo(value);
				for (int i = 0; i < 50; i++) {
					assertThat(new String(redis.get(("k" + i).getBytes()))).isEqualTo(Integer.toString(i));
				}
			});
			assertThat(proxy.stats().bytesToTarget()).isGreaterThan(value.length);
			assertThat(proxy.stats().bytesFromTarget()).isGreaterThan(value.length);
		}
	}

	@Test
	void shouldApplyANewDelayAtRunTime() {
		try (LatencyProxy proxy = LatencyProxy.start(redis.host(), redis.port(), Duration.ZERO)) {
			withRedis(proxy, redis -> {
				redis.ping();
				assertThat(timeOfPing(redis)).isLessThan(Duration.ofMillis(20));
				proxy.setDelay(Duration.ofMillis(15));
				assertThat(timeOfPing(redis)).isGreaterThanOrEqualTo(Duration.ofMillis(30));
				assertThat(proxy.delay()).isEqualTo(Duration.ofMillis(15));
			});
		}
	}

	@Test
	void shouldRejectANegativeDelay() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LatencyProxy.start(redis.host(), redis.port(), Duration.ofMillis(-1)))
			.withMessageContaining("oneWayDelay must be zero or positive, but was PT-0.001S");
	}

	private static Duration timeOfPing(RedisCommands<byte[], byte[]> redis) {
		long started = System.nanoTime();
		redis.ping();
		return Duration.ofNanos(System.nanoTime() - started);
	}

	private static void withRedis(LatencyProxy proxy, java.util.function.Consumer<RedisCommands<byte[], byte[]>> use) {
		RedisClient client = RedisClient.create(RedisURI.create(proxy.host(), proxy.port()));
		try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
			use.accept(connection.sync());
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}
}
