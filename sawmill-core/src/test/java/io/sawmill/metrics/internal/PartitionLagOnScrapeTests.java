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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.testkit.KafkaTestBroker;
import io.sawmill.testkit.MutableClock;

/**
 * The lag gauges against a real broker, read as a scrape reads them: with a lag interval
 * of an hour, only a read on scrape can make them follow the group's commits.
 */
class PartitionLagOnScrapeTests {

	private static final TopicPartition EVENTS = new TopicPartition("events", 0);

	private static final TopicPartition SCRAPED = new TopicPartition("scraped", 0);

	private static final String GROUP = "lag-on-scrape";

	private static KafkaTestBroker kafka;

	private static Admin admin;

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final MutableClock clock = new MutableClock(Instant.now());

	@BeforeAll
	static void startBroker() {
		kafka = KafkaTestBroker.start().createTopic("events", 1).createTopic("scraped", 1);
		admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
	}

	@AfterAll
	static void stopBroker() {
		if (admin != null) {
			admin.close();
		}
		if (kafka != null) {
			kafka.close();
		}
	}

	@Test
	void shouldShowTheLagAsTheBrokerHasItWhenScrapedNotAsItWasAtTheLastInterval() throws Exception {
		long tenMinutesAgo = clock.millis() - 600_000;
		produce(EVENTS, 20, tenMinutesAgo);
		PartitionLagMonitor monitor = new PartitionLagMonitor(admin, List.of("events"), null,
				new SawmillMetrics(registry, GROUP), Duration.ofHours(1),
				ConsumerRecordTimestamps.of(Map.of("bootstrap.servers", kafka.bootstrapServers())), clock);
		monitor.onPartitionsAssigned(List.of(EVENTS));
		monitor.start();
		try {
			await().atMost(Duration.ofSeconds(20))
				.until(() -> registry.find("sawmill.lag.seconds").gauge() != null
						&& gauge(EVENTS, "sawmill.lag.seconds").value() >= 600);
			assertThat(gauge(EVENTS, "sawmill.lag.records").value()).isEqualTo(20);

			commit(EVENTS, 20);
			clock.advance(ReadOnScrape.MAX_AGE.plusMillis(1));

			assertThat(gauge(EVENTS, "sawmill.lag.records").value()).isZero();
			assertThat(gauge(EVENTS, "sawmill.lag.seconds").value()).isZero();
			assertThat(monitor.totalLag()).isZero();

			produce(EVENTS, 5, clock.millis() - 30_000);
			clock.advance(ReadOnScrape.MAX_AGE.plusMillis(1));

			assertThat(gauge(EVENTS, "sawmill.lag.records").value()).isEqualTo(5);
			assertThat(gauge(EVENTS, "sawmill.lag.seconds").value()).isBetween(30.0, 40.0);
		}
		finally {
			monitor.stop();
		}
	}

	@Test
	void shouldReadTheBrokerAtMostOnceASecondHoweverOftenItIsScraped() throws Exception {
		produce(SCRAPED, 3, clock.millis());
		PartitionLagMonitor monitor = new PartitionLagMonitor(admin, List.of("scraped"), null,
				new SawmillMetrics(registry, GROUP), Duration.ofHours(1), null, clock);
		monitor.onPartitionsAssigned(List.of(SCRAPED));
		monitor.start();
		try {
			await().atMost(Duration.ofSeconds(20))
				.until(() -> registry.find("sawmill.lag.records").gauge() != null
						&& gauge(SCRAPED, "sawmill.lag.records").value() == 3);

			produce(SCRAPED, 4, clock.millis());

			assertThat(gauge(SCRAPED, "sawmill.lag.records").value()).as("within a second of the last read")
				.isEqualTo(3);
			clock.advance(ReadOnScrape.MAX_AGE);
			assertThat(gauge(SCRAPED, "sawmill.lag.records").value()).isEqualTo(7);
		}
		finally {
			monitor.stop();
		}
	}

	private Gauge gauge(TopicPartition partition, String name) {
		return registry.get(name)
			.tag("topic", partition.topic())
			.tag("partition", Integer.toString(partition.partition()))
			.gauge();
	}

	private static void commit(TopicPartition partition, long offset) throws Exception {
		admin.alterConsumerGroupOffsets(GROUP, Map.of(partition, new OffsetAndMetadata(offset)))
			.all()
			.get(10, TimeUnit.SECONDS);
	}

	private static void produce(TopicPartition partition, int count, long timestamp) throws Exception {
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new ByteArraySerializer(),
				new ByteArraySerializer())) {
			for (int i = 0; i < count; i++) {
				producer.send(new ProducerRecord<>(partition.topic(), partition.partition(), timestamp, null,
						new byte[] { (byte) i }));
			}
			producer.flush();
		}
	}

}
