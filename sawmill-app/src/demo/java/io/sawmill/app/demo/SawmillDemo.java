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
package io.sawmill.app.demo;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.sawmill.app.SawmillApplication;
import io.sawmill.metrics.internal.PartitionLagMonitor;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.testkit.KafkaTestBroker;
import io.sawmill.testkit.RedisServerProcess;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * The demo: a real Kafka broker in this JVM (KRaft), a real redis-server, a generator of
 * JSON events, and the normal Sawmill service consuming them; a status line every second,
 * and at the end every record read back from Redis and checked. Options are system
 * properties ({@code -Ddemo.records=…}), see README.md.
 */
public final class SawmillDemo {

	private static final String TOPIC = "events";

	private static final Duration TTL = Duration.ofHours(1);

	private SawmillDemo() {
	}

	public static void main(String[] args) throws Exception {
		long records = Long.getLong("demo.records", 200_000);
		long rate = Long.getLong("demo.rate", 50_000);
		int partitions = Integer.getInteger("demo.partitions", 6);
		int concurrency = Integer.getInteger("demo.concurrency", 2);
		int batchSize = Integer.getInteger("demo.batch-size", 1_000);
		int httpPort = Integer.getInteger("demo.http-port", 0);
		System.out.printf("Sawmill demo: %,d records at %s, %d partitions, concurrency %d, batch size %,d%n", records,
				rate > 0 ? String.format("%,d/s", rate) : "full speed", partitions, concurrency, batchSize);

		try (RedisServerProcess redis = DemoRedis.start();
				KafkaTestBroker kafka = KafkaTestBroker.start().createTopic(TOPIC, partitions)) {
			System.out.println("Kafka: in-process KRaft broker at " + kafka.bootstrapServers());
			SpringApplication app = new SpringApplication(SawmillApplication.class);
			app.setBannerMode(org.springframework.boot.Banner.Mode.OFF);
			ConfigurableApplicationContext context = app.run("--sawmill.topics=" + TOPIC,
					"--sawmill.group-id=sawmill-demo", "--sawmill.concurrency=" + concurrency,
					"--sawmill.batch-size=" + batchSize, "--sawmill.mapping.key-template=" + SampleEvents.KEY_TEMPLATE,
					"--sawmill.mapping.ttl=" + TTL, "--sawmill.metrics.lag-interval=1s",
					"--spring.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
					"--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
					"--server.port=" + httpPort);
			int port = context.getBean(Environment.class).getProperty("local.server.port", Integer.class, httpPort);
			System.out.println("Sawmill is up: http://localhost:" + port + "/actuator/prometheus");

			EventGenerator generator = new EventGenerator(kafka.bootstrapServers(), TOPIC, records, rate);
			Thread producer = new Thread(generator, "demo-generator");
			producer.start();
			boolean done = watch(context, generator, records);
			producer.join();
			context.close();

			RedisVerifier.Result result = RedisVerifier.verify(redis.host(), redis.port(), records, SampleEvents::key,
					SampleEvents::hash, TTL);
			System.out.println();
			System.out.println("Summary: produced " + generator.produced() + ", " + result);
			if (!done || !result.allVerified()) {
				System.out.println("DEMO FAILED");
				System.exit(1);
			}
			System.out.println("DEMO OK: every record is in Redis with its fields and TTL");
		}
		System.exit(0);
	}

	/**
	 * Prints the status line every second until everything produced is committed; false
	 * on time-out.
	 */
	private static boolean watch(ConfigurableApplicationContext context, EventGenerator generator, long records)
			throws InterruptedException {
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		SawmillMetrics metrics = context.getBean(SawmillMetrics.class);
		PartitionLagMonitor lag = context.getBean(PartitionLagMonitor.class);
		boolean tty = System.console() != null;
		long started = System.nanoTime();
		double lastWritten = 0;
		long lastTick = started;
		long idleSince = System.nanoTime();
		while (true) {
			TimeUnit.SECONDS.sleep(1);
			double written = registry.find("sawmill.records")
				.counters()
				.stream()
				.filter(c -> !"retried".equals(c.getId().getTag("outcome")))
				.mapToDouble(c -> c.count())
				.sum();
			long now = System.nanoTime();
			double perSecond = (written - lastWritten) / ((now - lastTick) / 1e9);
			lastWritten = written;
			lastTick = now;
			String line = String.format(Locale.ROOT,
					"[%4.0fs] produced %,d  written %,.0f  %,.0f rec/s  lag %,d  batch P99 %s", (now - started) / 1e9,
					generator.produced(), written, perSecond, lag.totalLag(), p99(metrics));
			System.out.print(tty ? "\r" + line + "   " : line + System.lineSeparator());
			if (written >= records) {
				System.out.println();
				return true;
			}
			if (perSecond > 0) {
				idleSince = now;
			}
			else if (now - idleSince > TimeUnit.SECONDS.toNanos(60)) {
				System.out.println();
				System.out.println("No progress for 60 s; stopping.");
				return false;
			}
		}
	}

	private static String p99(SawmillMetrics metrics) {
		for (ValueAtPercentile percentile : metrics.batchDuration().takeSnapshot().percentileValues()) {
			if (percentile.percentile() == 0.99) {
				return String.format(Locale.ROOT, "%.1f ms", percentile.value(TimeUnit.MILLISECONDS));
			}
		}
		return "n/a";
	}

}
