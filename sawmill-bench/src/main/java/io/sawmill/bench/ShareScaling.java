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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.Banner;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.app.SawmillApplication;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RecordMappingException;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.VersionGuard;
import io.sawmill.testkit.KafkaTestBroker;
import io.sawmill.testkit.RedisServerProcess;

/**
 * What share groups buy a CPU-heavy mapping: a 1-partition topic drained by the consumer
 * group (one consumer thread, the most a partition takes) and by a share group with 2 and
 * 4 threads, the real Sawmill service in this JVM each time, against a KRaft broker with
 * share groups and a {@code redis-server} on loopback. The mapping hashes each record's
 * value {@code -Dhashes} times with SHA-256 before a version-guarded write, so the
 * mapping, not Redis, is the bottleneck.
 * <p>
 * Usage:
 * {@code java [-Drecords=20000 -Dkeys=2000 -Dhashes=1000 -Dbatch=200 -Drounds=3] -cp sawmill-bench/target/sawmill-bench.jar
 * io.sawmill.bench.ShareScaling}. Prints per row records/s (from the first record handled
 * to the last, so start-up and joining the group do not count) and the consumer threads'
 * CPU per record. Every drain is verified: every record handled ({@code sawmill.records},
 * retried ones aside) and every key at its newest version in Redis.
 */
public final class ShareScaling {

	private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(10);

	private static volatile int hashes;

	private ShareScaling() {
	}

	public static void main(String[] args) throws Exception {
		int records = Integer.getInteger("records", 20_000);
		int keys = Integer.getInteger("keys", 2_000);
		int batch = Integer.getInteger("batch", 200);
		hashes = Integer.getInteger("hashes", 1000);
		int rounds = Integer.getInteger("rounds", 3);
		try (KafkaTestBroker kafka = KafkaTestBroker.startWithShareGroups(Duration.ofSeconds(30));
				RedisServerProcess redis = RedisServerProcess.startNew()) {
			redis.command("FUNCTION", "LOAD", "REPLACE", VersionGuard.librarySource());
			String topic = "cpu-heavy";
			kafka.createTopic(topic, 1);
			produce(kafka.bootstrapServers(), topic, records, keys);
			System.out.printf(Locale.ROOT,
					"%d records, %d keys, 1 partition, %d SHA-256 per record, batch %d, %d cores%n", records, keys,
					hashes, batch, Runtime.getRuntime().availableProcessors());
			System.out.printf(Locale.ROOT, "%-6s %-20s %12s %16s%n", "round", "consumption", "records/s",
					"CPU us/record");
			RedisClient client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
			try (StatefulRedisConnection<String, String> reader = client.connect()) {
				int run = 0;
				for (int round = 1; round <= rounds; round++) {
					for (String[] variant : new String[][] { { "group", "1" }, { "share", "2" }, { "share", "4" } }) {
						reader.sync().flushall();
						redis.command("FUNCTION", "LOAD", "REPLACE", VersionGuard.librarySource());
						drain(kafka.bootstrapServers(), redis, reader, topic, variant[0], Integer.parseInt(variant[1]),
								records, keys, batch, ++run, round);
					}
				}
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	private static void drain(String bootstrap, RedisServerProcess redis,
			StatefulRedisConnection<String, String> reader, String topic, String mode, int threads, int records,
			int keys, int batch, int run, int round) throws Exception {
		String group = "bench-" + mode + "-" + threads + "-" + run;
		long start = System.nanoTime();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SawmillApplication.class,
				HeavyMapping.class)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.run("--sawmill.topics=" + topic, "--sawmill.group-id=" + group, "--sawmill.consumption.mode=" + mode,
					"--sawmill.concurrency=" + threads, "--sawmill.batch-size=" + batch,
					"--spring.kafka.bootstrap-servers=" + bootstrap, "--spring.data.redis.host=" + redis.host(),
					"--spring.data.redis.port=" + redis.port(), "--server.port=0", "--logging.level.root=WARN",
					"--logging.level.org.apache.kafka=ERROR", "--sawmill.doctor.enabled=false")) {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			long deadline = start + DRAIN_TIMEOUT.toNanos();
			while (handled(registry) == 0 && System.nanoTime() < deadline) {
				Thread.sleep(5);
			}
			// timed from the first record handled: start-up and joining the group are not
			// the mapping's throughput
			long first = System.nanoTime();
			double handledAtFirst = handled(registry);
			while (handled(registry) < records || !newest(reader, records, keys)) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException(group + ": not drained within " + DRAIN_TIMEOUT + " ("
							+ handled(registry) + " of " + records + " handled)");
				}
				Thread.sleep(20);
			}
			double seconds = (System.nanoTime() - first) / 1e9;
			double cpuMicros = consumerCpuNanos() / 1e3 / records;
			System.out.printf(Locale.ROOT, "%-6d %-20s %12.0f %16.1f%n", round,
					mode + " (" + threads + " thread" + (threads > 1 ? "s" : "") + ")",
					(records - handledAtFirst) / seconds, cpuMicros);
		}
	}

	/**
	 * Records handled, as Sawmill counts them; a retried record is counted again when
	 * handled.
	 */
	private static double handled(MeterRegistry registry) {
		return registry.find("sawmill.records")
			.counters()
			.stream()
			.filter(counter -> !"retried".equals(counter.getId().getTag("outcome")))
			.mapToDouble(counter -> counter.count())
			.sum();
	}

	/**
	 * Whether every key holds its newest version (key k's last record is the last of its
	 * residue).
	 */
	private static boolean newest(StatefulRedisConnection<String, String> reader, int records, int keys) {
		for (int k = 0; k < keys; k++) {
			long last = records - keys + k;
			if (!Long.toString(last).equals(reader.sync().hget("heavy:" + k, VersionGuard.VERSION_FIELD))) {
				return false;
			}
		}
		return true;
	}

	/**
	 * CPU time of the consumer threads: the share consumers' ({@code sawmill-share-*}) or
	 * the listener container's ({@code …-C-n}).
	 */
	private static long consumerCpuNanos() {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		long total = 0;
		for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
			if (info != null && (info.getThreadName().startsWith("sawmill-share-")
					|| info.getThreadName().matches(".*-C-\\d+"))) {
				total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
			}
		}
		return total;
	}

	private static void produce(String bootstrap, String topic, int records, int keys) {
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.LINGER_MS_CONFIG, 20),
				new StringSerializer(), new StringSerializer())) {
			for (int i = 0; i < records; i++) {
				producer.send(new ProducerRecord<>(topic, Integer.toString(i % keys),
						"{\"v\":" + i + ",\"payload\":\"" + "x".repeat(200) + "\"}"));
			}
		}
	}

	/**
	 * The CPU-heavy mapping: {@code hashes} rounds of SHA-256 over the value, then a
	 * version-guarded hash {@code heavy:<key>} at the record's version (its offset); it
	 * converges in any order, and says so.
	 */
	@Configuration(proxyBeanMethods = false)
	static class HeavyMapping {

		@Bean
		RecordMapper heavyMapper() {
			return new RecordMapper() {

				@Override
				public List<RedisWrite> map(ConsumerRecord<byte[], byte[]> record) {
					byte[] digest = record.value();
					try {
						MessageDigest sha = MessageDigest.getInstance("SHA-256");
						for (int i = 0; i < hashes; i++) {
							digest = sha.digest(digest);
						}
					}
					catch (NoSuchAlgorithmException ex) {
						throw new RecordMappingException("no SHA-256: " + ex.getMessage());
					}
					byte[] key = ("heavy:" + new String(record.key(), StandardCharsets.UTF_8))
						.getBytes(StandardCharsets.UTF_8);
					return List.of(VersionGuard.upsert(key, record.offset(), Duration.ZERO,
							Map.of("v".getBytes(StandardCharsets.UTF_8), record.value(),
									"digest".getBytes(StandardCharsets.UTF_8), digest)));
				}

				@Override
				public boolean orderIndependent() {
					return true;
				}
			};
		}

	}

}
