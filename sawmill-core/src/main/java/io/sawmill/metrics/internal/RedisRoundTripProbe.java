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

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Redis round-trip time on the writing path: a PING every {@code interval} through the
 * same native Lettuce client (and so the same {@code ClientResources}, event loop,
 * endpoint, TLS and credentials) that the pipelined writer uses, on a connection of the
 * probe's own — never on a listener thread's connection, whose half-built batch a PING
 * flush would send early.
 * <p>
 * Publishes the last RTT as the gauge {@code sawmill.redis.rtt} (seconds; NaN after a
 * failed PING) and every RTT into the histogram {@code sawmill.redis.ping.duration}. In
 * the field this is the number that showed a pod talking to a Redis primary in another
 * zone (≈ 1 ms instead of ≈ 0.1 ms).
 * <p>
 * Thread-safe: {@link #ping()} is also called by the health check.
 */
public final class RedisRoundTripProbe implements SmartLifecycle, AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(RedisRoundTripProbe.class);

	/**
	 * Fixed bucket boundaries around the 0.1 ms (same zone) and 1 ms (cross zone) marks.
	 */
	private static final Duration[] BUCKETS = { Duration.ofNanos(100_000), Duration.ofNanos(250_000),
			Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
			Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
			Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5) };

	private final Supplier<AbstractRedisClient> client;

	private final Duration interval;

	private final Duration timeout;

	private final Timer histogram;

	private final AtomicReference<Double> lastSeconds = new AtomicReference<>(Double.NaN);

	private final AtomicReference<@Nullable String> lastError = new AtomicReference<>();

	private @Nullable StatefulConnection<byte[], byte[]> connection;

	private final PeriodicTask task;

	/**
	 * @param client the native client of the writing path
	 * @param interval how often to PING
	 * @param timeout how long one PING may take before it counts as failed
	 */
	public RedisRoundTripProbe(Supplier<AbstractRedisClient> client, MeterRegistry registry, String group,
			Duration interval, Duration timeout) {
		if (interval.isNegative() || interval.isZero()) {
			throw new IllegalArgumentException("interval must be greater than 0, but was " + interval);
		}
		this.client = client;
		this.interval = interval;
		this.task = new PeriodicTask("sawmill-redis-rtt", this::pingQuietly, Duration.ZERO, interval);
		this.timeout = timeout;
		Gauge.builder("sawmill.redis.rtt", lastSeconds, AtomicReference::get)
			.description("Round-trip time of the last PING on the writing path's Redis client")
			.baseUnit("seconds")
			.tag("group", group)
			.register(registry);
		this.histogram = Timer.builder("sawmill.redis.ping.duration")
			.description("Round-trip times of the periodic PING on the writing path's Redis client")
			.tag("group", group)
			.serviceLevelObjectives(BUCKETS)
			.register(registry);
	}

	/**
	 * One PING, recorded in both meters.
	 * @return the round-trip time
	 * @throws IllegalStateException when Redis did not answer within the timeout
	 */
	public synchronized Duration ping() {
		try {
			StatefulConnection<byte[], byte[]> open = connection();
			long started = System.nanoTime();
			RedisFuture<String> pong = async(open);
			pong.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			Duration rtt = Duration.ofNanos(System.nanoTime() - started);
			histogram.record(rtt);
			lastSeconds.set(rtt.toNanos() / 1e9);
			lastError.set(null);
			return rtt;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw failed(ex);
		}
		catch (ExecutionException | TimeoutException | RuntimeException ex) {
			throw failed(ex);
		}
	}

	private IllegalStateException failed(Exception ex) {
		lastSeconds.set(Double.NaN);
		Throwable cause = ex instanceof ExecutionException && ex.getCause() != null ? ex.getCause() : ex;
		String message = ex instanceof TimeoutException ? "no PONG within " + timeout : cause.toString();
		lastError.set(message);
		closeConnection();
		return new IllegalStateException("Redis did not answer PING: " + message, cause);
	}

	/** The last round trip in seconds, NaN before the first or after a failed PING. */
	public double lastRoundTripSeconds() {
		return Objects.requireNonNull(lastSeconds.get(), "NaN, never null, when unknown");
	}

	/** Why the last PING failed, or null if it succeeded. */
	public @Nullable String lastError() {
		return lastError.get();
	}

	private static RedisFuture<String> async(StatefulConnection<byte[], byte[]> connection) {
		if (connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
			return cluster.async().ping();
		}
		return ((StatefulRedisConnection<byte[], byte[]>) connection).async().ping();
	}

	private StatefulConnection<byte[], byte[]> connection() {
		if (connection == null || !connection.isOpen()) {
			AbstractRedisClient redis = client.get();
			if (redis instanceof RedisClusterClient cluster) {
				connection = cluster.connect(ByteArrayCodec.INSTANCE);
			}
			else if (redis instanceof RedisClient standalone) {
				connection = standalone.connect(ByteArrayCodec.INSTANCE);
			}
			else {
				throw new IllegalStateException("unsupported Redis client " + redis.getClass().getName());
			}
		}
		return connection;
	}

	private synchronized void closeConnection() {
		if (connection != null) {
			try {
				connection.close();
			}
			catch (RuntimeException ex) {
				log.debug("Closing the RTT probe's Redis connection failed", ex);
			}
			connection = null;
		}
	}

	@Override
	public void start() {
		task.start();
	}

	private void pingQuietly() {
		try {
			ping();
		}
		catch (RuntimeException ex) {
			log.debug("Redis RTT probe: {}", ex.getMessage());
		}
	}

	@Override
	public void stop() {
		task.stop(Duration.ZERO);
		closeConnection();
	}

	@Override
	public boolean isRunning() {
		return task.isRunning();
	}

	@Override
	public void close() {
		stop();
	}

}
