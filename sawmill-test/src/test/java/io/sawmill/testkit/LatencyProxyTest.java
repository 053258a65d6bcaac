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

/**
 * The latency proxy in front of a real redis-server: delay applied both ways, bytes
 * unchanged and in order.
 */
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
	void shouldRunItsThreadsAsNormalThreadsByDefault() {
		try (LatencyProxy proxy = LatencyProxy.start(redis.host(), redis.port(), Duration.ofMillis(1))) {
			withRedis(proxy, redis -> redis.ping());
			LatencyProxy.Stats stats = proxy.stats();
			assertThat(stats.priority()).isEqualTo(LatencyProxy.Priority.NORMAL);
			assertThat(stats.realtimeThreads()).isZero();
			assertThat(stats.normalThreads()).isGreaterThanOrEqualTo(4);
			assertThat(policiesOfThreads(proxy)).containsOnly(SCHED_OTHER);
		}
	}

	@Test
	void shouldRunItsThreadsAsRealTimeThreadsWhereTheKernelAllowsIt() {
		try (LatencyProxy proxy = LatencyProxy.start(redis.host(), redis.port(), Duration.ofMillis(1),
				LatencyProxy.Priority.REALTIME)) {
			withRedis(proxy, redis -> {
				redis.set("rt".getBytes(), "yes".getBytes());
				assertThat(redis.get("rt".getBytes())).isEqualTo("yes".getBytes());
			});
			// the threads are switched off the data path, one after the other
			LatencyProxy.Stats stats = org.awaitility.Awaitility.await()
				.atMost(Duration.ofSeconds(30))
				.until(proxy::stats, switched -> switched.realtimeThreads() + switched.normalThreads() >= 4);
			assertThat(stats.priority()).isEqualTo(LatencyProxy.Priority.REALTIME);
			assertThat(stats.toString()).contains("threads: " + stats.realtimeThreads() + " SCHED_FIFO");
			if (stats.realtimeRefused() == null) {
				// root or CAP_SYS_NICE (as in CI): every thread of the proxy runs ahead
				// of normal threads
				assertThat(stats.realtimeThreads()).isGreaterThanOrEqualTo(4);
				assertThat(stats.normalThreads()).isZero();
				assertThat(policiesOfThreads(proxy)).containsOnly(SCHED_FIFO);
			}
			else {
				// refused: the proxy still forwards, on normal threads, and says why
				assertThat(stats.realtimeThreads()).isZero();
				assertThat(stats.normalThreads()).isGreaterThanOrEqualTo(4);
				assertThat(stats.toString()).contains("real-time refused: ");
			}
		}
	}

	private static final int SCHED_OTHER = 0;

	private static final int SCHED_FIFO = 1;

	/**
	 * The scheduling policy (field 41 of {@code /proc/<pid>/task/<tid>/stat}) of each
	 * live thread of the proxy's pool.
	 */
	private static java.util.Set<Integer> policiesOfThreads(LatencyProxy proxy) {
		java.util.Set<Integer> policies = new java.util.HashSet<>();
		java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
		assertThat(tasks).as("/proc/self/task (Linux)").isNotNull();
		for (java.io.File task : tasks) {
			try {
				String name = java.nio.file.Files.readString(task.toPath().resolve("comm")).strip();
				if (!name.startsWith("proxy-" + proxy.port() + "-")) {
					continue;
				}
				String stat = java.nio.file.Files.readString(task.toPath().resolve("stat"));
				String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
				policies.add(Integer.parseInt(fields[41 - 3]));
			}
			catch (java.io.IOException ex) {
				// the thread ended meanwhile
			}
		}
		assertThat(policies).as("policies of the proxy's threads").isNotEmpty();
		return policies;
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
