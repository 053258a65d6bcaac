package io.sawmill.bench.e2e;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Strategy 1, one synchronous round trip per command: {@code opsForHash().putAll} then {@code expire}
 * for each record, each waiting for its reply, with Spring Data Redis' defaults. Too slow to drain a
 * real backlog, so it runs on a bounded sample (records 0…n-1, capped by a time budget) and the
 * per-batch numbers are extrapolated from the measured time per record; the report labels them so.
 */
final class SequentialSample {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/**
	 * @param records records written
	 * @param perRecord mean time per record (both round trips)
	 * @param p50 per-record median
	 * @param p99 per-record 99th percentile
	 */
	record Result(int records, long perRecordNanos, long p50, long p99) {

		double recordsPerSecond() {
			return 1e9 / perRecordNanos;
		}

		/** A batch of {@code size} records takes {@code size} record times, one after the other. */
		long batchNanos(int size) {
			return perRecordNanos * size;
		}
	}

	static Result run(Workload workload, int sample, Duration budget, String host, int port, Duration ttl,
			java.util.function.IntConsumer progress) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port));
		factory.afterPropertiesSet();
		factory.start();
		try {
			StringRedisTemplate template = new StringRedisTemplate(factory);
			template.hasKey("warm-up");
			long[] nanos = new long[sample];
			long deadline = System.nanoTime() + budget.toNanos();
			int done = 0;
			long started = System.nanoTime();
			while (done < sample && System.nanoTime() < deadline) {
				long t0 = System.nanoTime();
				JsonNode json = JSON.readTree(workload.json(done));
				Map<String, String> fields = new LinkedHashMap<>();
				json.properties().forEach(field -> fields.put(field.getKey(), field.getValue().asString()));
				String key = "rec:" + json.get("id").asString();
				template.opsForHash().putAll(key, fields);
				template.expire(key, ttl);
				nanos[done++] = System.nanoTime() - t0;
				if ((done & 63) == 0) {
					progress.accept(done);
				}
			}
			long total = System.nanoTime() - started;
			long[] sorted = Arrays.copyOf(nanos, done);
			Arrays.sort(sorted);
			return new Result(done, total / Math.max(1, done), BatchRecorder.percentile(sorted, 0.5),
					BatchRecorder.percentile(sorted, 0.99));
		}
		finally {
			factory.destroy();
		}
	}

	static byte[] utf8(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}
}
