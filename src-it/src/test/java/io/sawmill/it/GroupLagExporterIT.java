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
package io.sawmill.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.metrics.internal.GroupLagExporter;

/**
 * {@link GroupLagExporter} against a real broker: the group's committed offsets against
 * the end offsets on every partition, whether a member of the group owns it, nobody does,
 * or the group has committed nothing there; and the series withdrawn once the lag cannot
 * be read any more.
 */
class GroupLagExporterIT {

	private static final String TOPIC = "group-lag";

	private static final String GROUP = "group-lag-consumers";

	private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);

	private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

	private static final TopicPartition P2 = new TopicPartition(TOPIC, 2);

	private static KafkaServer kafka;

	@BeforeAll
	static void startBroker() {
		kafka = KafkaServer.start();
		kafka.createTopic(TOPIC, 3);
	}

	@AfterAll
	static void stopBroker() {
		kafka.close();
	}

	@Test
	void shouldReportCommittedAgainstEndOffsetsOnEveryPartitionWithOrWithoutAnActiveMember() throws Exception {
		produce(P0, 100);
		produce(P1, 50);
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		try (Admin admin = Kafka.admin(kafka.bootstrapServers())) {
			GroupLagExporter exporter = new GroupLagExporter(admin, List.of(TOPIC), registry, GROUP,
					Duration.ofSeconds(15));

			exporter.refresh();
			assertThat(exporter.lags()).as("a group that never committed is behind by everything in the log")
				.isEqualTo(Map.of(P0, 100L, P1, 50L, P2, 0L));

			try (KafkaConsumer<byte[], byte[]> member = consumer()) {
				member.subscribe(List.of(TOPIC));
				await().atMost(Duration.ofSeconds(60)).until(() -> {
					member.poll(Duration.ofMillis(100));
					return member.assignment().size() == 3;
				});
				member.commitSync(Map.of(P0, new OffsetAndMetadata(60), P2, new OffsetAndMetadata(0)));

				exporter.refresh();
				assertThat(exporter.lags()).as("an active member owns every partition")
					.isEqualTo(Map.of(P0, 40L, P1, 50L, P2, 0L));
				assertThat(exporter.lags()).isEqualTo(lagsReadDirectly(admin));
			}

			produce(P2, 30);
			exporter.refresh();
			assertThat(exporter.lags()).as("the group has no member any more: its lag still grows")
				.isEqualTo(Map.of(P0, 40L, P1, 50L, P2, 30L));
			assertThat(
					admin.describeConsumerGroups(List.of(GROUP)).all().get(30, TimeUnit.SECONDS).get(GROUP).members())
				.isEmpty();
			assertThat(registry.find("sawmill.group.lag.records").tags("group", GROUP, "topic", TOPIC).gauges())
				.extracting(g -> g.getId().getTag("partition") + "=" + (long) g.value())
				.containsExactlyInAnyOrder("0=40", "1=50", "2=30");

			admin.deleteTopics(List.of(TOPIC)).all().get(30, TimeUnit.SECONDS);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> !admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(TOPIC));
			for (int read = 1; read < GroupLagExporter.FAILED_READS_BEFORE_UNKNOWN; read++) {
				assertThatException().isThrownBy(exporter::refresh);
				assertThat(exporter.lags()).as("the last values stay through a failed read").hasSize(3);
			}
			assertThatException().isThrownBy(exporter::refresh);
			assertThat(exporter.lags()).isEmpty();
			assertThat(registry.find("sawmill.group.lag.records").gauges()).extracting(Gauge::getId).isEmpty();
		}
	}

	@Test
	void shouldReportEveryTopicAPatternMatchesAlsoOneCreatedLater() throws Exception {
		kafka.createTopic("pattern-eu", 1);
		TopicPartition eu = new TopicPartition("pattern-eu", 0);
		TopicPartition us = new TopicPartition("pattern-us", 0);
		produce(eu, 20);
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		try (Admin admin = Kafka.admin(kafka.bootstrapServers())) {
			GroupLagExporter exporter = new GroupLagExporter(admin, List.of(), Pattern.compile("pattern-.*"), registry,
					"pattern-group", Duration.ofSeconds(15));

			exporter.refresh();
			assertThat(exporter.lags()).isEqualTo(Map.of(eu, 20L));

			kafka.createTopic("pattern-us", 1);
			produce(us, 5);
			exporter.refresh();
			assertThat(exporter.lags()).isEqualTo(Map.of(eu, 20L, us, 5L));
		}
	}

	private static Map<TopicPartition, Long> lagsReadDirectly(Admin admin) throws Exception {
		Map<TopicPartition, Long> committed = Kafka.committedOffsets(admin, GROUP);
		Map<TopicPartition, Long> lags = new java.util.HashMap<>();
		Kafka.endOffsets(admin, TOPIC, 3).forEach((p, end) -> lags.put(p, end - committed.getOrDefault(p, 0L)));
		return lags;
	}

	private static KafkaConsumer<byte[], byte[]> consumer() {
		return new KafkaConsumer<>(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
						ConsumerConfig.GROUP_ID_CONFIG, GROUP, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
						ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1),
				new ByteArrayDeserializer(), new ByteArrayDeserializer());
	}

	private static void produce(TopicPartition partition, int records) throws Exception {
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map
			.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
				new ByteArraySerializer(), new ByteArraySerializer())) {
			for (int i = 0; i < records; i++) {
				producer.send(new ProducerRecord<>(partition.topic(), partition.partition(), null,
						("r" + i).getBytes(StandardCharsets.UTF_8)));
			}
			producer.flush();
		}
	}

}
