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
package io.sawmill.bench.e2e.measure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.sawmill.bench.e2e.workload.Workload;

/**
 * Strategy 1, one synchronous round trip per command: {@code opsForHash().putAll} then
 * {@code expire} for each record, each waiting for its reply, with Spring Data Redis'
 * defaults. Too slow to drain a real backlog, so it runs on a bounded sample (records
 * 0…n-1, capped by a time budget, after a quarter of it unmeasured) and the per-batch
 * numbers are extrapolated from the measured time per record; the report labels them so.
 */
public final class SequentialSample {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/**
	 * @param records records written
	 * @param perRecord mean time per record (both round trips)
	 * @param p50 per-record median
	 * @param p99 per-record 99th percentile
	 * @param cpuNanosPerRecord this JVM's CPU per record while writing (see
	 * {@link ConsumerCpu}): the JSON parse and both round trips, no Kafka consumer
	 */
	public record Result(int records, long perRecordNanos, long p50, long p99, double cpuNanosPerRecord) {

		public double recordsPerSecond() {
			return 1e9 / perRecordNanos;
		}

		/**
		 * A batch of {@code size} records takes {@code size} record times, one after the
		 * other.
		 */
		public long batchNanos(int size) {
			return perRecordNanos * size;
		}
	}

	public static Result run(Workload workload, int sample, Duration budget, String host, int port, Duration ttl,
			java.util.function.IntConsumer progress) throws InterruptedException {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port));
		factory.afterPropertiesSet();
		factory.start();
		try {
			StringRedisTemplate template = new StringRedisTemplate(factory);
			// a quarter of the sample first, unmeasured, so the JIT has compiled this
			// path, then flushed
			long warmUpDeadline = System.nanoTime() + budget.toNanos() / 4;
			for (int seq = 0; seq < sample / 4 && System.nanoTime() < warmUpDeadline; seq++) {
				write(template, workload, seq, ttl);
			}
			template.execute((RedisCallback<Object>) connection -> {
				connection.serverCommands().flushAll();
				return null;
			});
			ConsumerCpu.awaitQuiet(Duration.ofSeconds(5));
			long[] nanos = new long[sample];
			long deadline = System.nanoTime() + budget.toNanos();
			int done = 0;
			long started = System.nanoTime();
			long cpuBefore = ConsumerCpu.nanos();
			while (done < sample && System.nanoTime() < deadline) {
				long t0 = System.nanoTime();
				write(template, workload, done, ttl);
				nanos[done++] = System.nanoTime() - t0;
				if ((done & 63) == 0) {
					progress.accept(done);
				}
			}
			long total = System.nanoTime() - started;
			long cpu = ConsumerCpu.nanos() - cpuBefore;
			long[] sorted = Arrays.copyOf(nanos, done);
			Arrays.sort(sorted);
			return new Result(done, total / Math.max(1, done), BatchRecorder.percentile(sorted, 0.5),
					BatchRecorder.percentile(sorted, 0.99), done == 0 ? Double.NaN : cpu / (double) done);
		}
		finally {
			factory.destroy();
		}
	}

	/** Record {@code seq}: parsed, then HSET and EXPIRE, each awaiting its reply. */
	private static void write(StringRedisTemplate template, Workload workload, long seq, Duration ttl) {
		JsonNode json = JSON.readTree(workload.json(seq));
		Map<String, String> fields = new LinkedHashMap<>();
		json.properties().forEach(field -> fields.put(field.getKey(), field.getValue().asString()));
		String key = "rec:" + json.get("id").asString();
		template.opsForHash().putAll(key, fields);
		template.expire(key, ttl);
	}

	static byte[] utf8(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

}
