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
package io.sawmill.bench;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettucePoolingClientConfiguration;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

import io.lettuce.core.ClientOptions;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.testkit.RedisServerProcess;
import io.sawmill.testkit.SampleEvents;

/**
 * Measures the ways to send one batch of HSET + EXPIRE commands in one round trip, on a
 * real redis-server on loopback, so that docs/architecture.md can say why Sawmill writes
 * the way it does:
 * <ol>
 * <li>RedisTemplate.executePipelined with Spring Data Redis' defaults (flush after every
 * command, a new dedicated connection per pipeline);</li>
 * <li>RedisTemplate.executePipelined on a pooled connection with the flush-on-close
 * policy;</li>
 * <li>Sawmill's writer: the native Lettuce client, a connection per thread, one flush per
 * chunk.</li>
 * </ol>
 * Usage:
 * {@code ./mvnw -q -pl sawmill-bench -am install -DskipTests && ./mvnw -q -pl sawmill-bench exec:java
 * [-Dbatches=300 -Dbatch=1000]}. Prints per-batch P50/P99 and records per second for
 * each.
 */
public final class PipelineStrategies {

	private static final Duration TTL = Duration.ofHours(1);

	private PipelineStrategies() {
	}

	public static void main(String[] args) throws Exception {
		int batches = Integer.getInteger("batches", 300);
		int batchSize = Integer.getInteger("batch", 1000);
		try (RedisServerProcess redis = RedisServerProcess.startNew()) {
			List<List<Map.Entry<byte[], Map<byte[], byte[]>>>> data = batches(batches + 50, batchSize);
			System.out.printf(Locale.ROOT, "redis-server on 127.0.0.1:%d, %d batches of %d records (HSET + EXPIRE)%n",
					redis.port(), batches, batchSize);
			System.out.printf(Locale.ROOT, "%-50s %10s %10s %12s%n", "strategy", "P50 ms", "P99 ms", "records/s");

			LettuceConnectionFactory defaults = factory(redis, LettuceClientConfiguration.defaultConfiguration());
			report("RedisTemplate.executePipelined, defaults", run(data, template(defaults)), batchSize);
			defaults.destroy();

			LettucePoolingClientConfiguration pooled = LettucePoolingClientConfiguration.builder()
				.poolConfig(new GenericObjectPoolConfig<>())
				.build();
			LettuceConnectionFactory pooledFactory = factory(redis, pooled);
			pooledFactory.setPipeliningFlushPolicy(LettuceConnection.PipeliningFlushPolicy.flushOnClose());
			report("RedisTemplate.executePipelined, pool+flushOnClose", run(data, template(pooledFactory)), batchSize);
			pooledFactory.destroy();

			// the client options Sawmill's auto-configuration gives Boot's connection
			// factory
			LettuceConnectionFactory forSawmill = factory(redis,
					LettuceClientConfiguration.builder()
						.clientOptions(ClientOptions.builder().useHashIndexQueue(false).build())
						.build());
			try (LettucePipelinedWriter writer = new LettucePipelinedWriter(forSawmill::getNativeClient,
					PipelineConfig.ofDefaults())) {
				report("Sawmill LettucePipelinedWriter", run(data, batch -> {
					List<RedisWrite> writes = new ArrayList<>(batch.size() * 2);
					batch.forEach(e -> {
						writes.add(RedisWrite.hset(e.getKey(), e.getValue()));
						writes.add(RedisWrite.expire(e.getKey(), TTL));
					});
					PipelineResult result = writer.write(writes);
					if (!result.succeeded()) {
						throw new IllegalStateException(result.failures().get(0).cause());
					}
				}), batchSize);
			}
			forSawmill.destroy();
		}
	}

	private static LettuceConnectionFactory factory(RedisServerProcess redis, LettuceClientConfiguration client) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(redis.host(), redis.port()), client);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private static Consumer<List<Map.Entry<byte[], Map<byte[], byte[]>>>> template(LettuceConnectionFactory factory) {
		RedisTemplate<byte[], byte[]> template = new RedisTemplate<>();
		template.setConnectionFactory(factory);
		template.setKeySerializer(RedisSerializer.byteArray());
		template.setValueSerializer(RedisSerializer.byteArray());
		template.setHashKeySerializer(RedisSerializer.byteArray());
		template.setHashValueSerializer(RedisSerializer.byteArray());
		template.afterPropertiesSet();
		return batch -> template.executePipelined((RedisCallback<Object>) connection -> {
			batch.forEach(e -> {
				connection.hashCommands().hMSet(e.getKey(), e.getValue());
				connection.keyCommands().expire(e.getKey(), TTL.toSeconds());
			});
			return null;
		});
	}

	private static long[] run(List<List<Map.Entry<byte[], Map<byte[], byte[]>>>> data,
			Consumer<List<Map.Entry<byte[], Map<byte[], byte[]>>>> writeBatch) {
		long[] nanos = new long[data.size() - 50];
		for (int i = 0; i < data.size(); i++) {
			long started = System.nanoTime();
			writeBatch.accept(data.get(i));
			if (i >= 50) {
				nanos[i - 50] = System.nanoTime() - started;
			}
		}
		return nanos;
	}

	private static void report(String name, long[] nanos, int batchSize) {
		long total = Arrays.stream(nanos).sum();
		long[] sorted = nanos.clone();
		Arrays.sort(sorted);
		System.out.printf(Locale.ROOT, "%-50s %10.2f %10.2f %,12.0f%n", name, sorted[sorted.length / 2] / 1e6,
				sorted[(int) Math.ceil(sorted.length * 0.99) - 1] / 1e6,
				nanos.length * (double) batchSize / (total / 1e9));
	}

	private static List<List<Map.Entry<byte[], Map<byte[], byte[]>>>> batches(int count, int size) {
		List<List<Map.Entry<byte[], Map<byte[], byte[]>>>> batches = new ArrayList<>(count);
		long id = 0;
		for (int b = 0; b < count; b++) {
			List<Map.Entry<byte[], Map<byte[], byte[]>>> batch = new ArrayList<>(size);
			for (int r = 0; r < size; r++, id++) {
				Map<byte[], byte[]> fields = new LinkedHashMap<>();
				SampleEvents.hash(id).forEach((k, v) -> fields.put(utf8(k), utf8(v)));
				batch.add(Map.entry(utf8(SampleEvents.key(id)), fields));
			}
			batches.add(batch);
		}
		return batches;
	}

	private static byte[] utf8(String s) {
		return s.getBytes(StandardCharsets.UTF_8);
	}

}
