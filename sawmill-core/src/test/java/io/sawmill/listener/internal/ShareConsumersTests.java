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
package io.sawmill.listener.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.deadletter.DeadLetter;
import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.VersionGuard;
import io.sawmill.mapping.json.JsonHashMapper;
import io.sawmill.mapping.json.JsonHashMapperConfig;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.testkit.KafkaTestBroker;
import io.sawmill.testkit.RedisServerProcess;
import io.sawmill.testkit.ShareGroupFeature;

/**
 * Share-group consumption against a real KRaft broker with share groups on and a real
 * redis-server: more threads than partitions, each record acknowledged after Redis took
 * its writes, dead letters rejected only once published, and a Redis outage released.
 */
class ShareConsumersTests {

	private static KafkaTestBroker kafka;

	private static RedisServerProcess redis;

	private static RedisClient client;

	private static StatefulRedisConnection<String, String> reader;

	private static KafkaProducer<String, String> producer;

	@BeforeAll
	static void startServers() {
		kafka = KafkaTestBroker.startWithShareGroups(Duration.ofSeconds(5));
		redis = RedisServerProcess.startNew();
		client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		reader = client.connect();
		producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
				new StringSerializer(), new StringSerializer());
	}

	@AfterAll
	static void stopServers() {
		producer.close();
		reader.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		redis.close();
		kafka.close();
	}

	@Test
	void shouldSpreadTwoPartitionsOverThreeThreadsAndLeaveEveryKeyAtItsNewestVersion() throws Exception {
		kafka.createTopic("spread", 2);
		int keys = 40;
		int versions = 25;
		Set<String> threads = ConcurrentHashMap.newKeySet();
		JsonHashMapper json = JsonHashMapper
			.of(JsonHashMapperConfig.custom().keyTemplate("spread:{@key}").version("field:v").build());
		RecordMapper mapper = record -> {
			threads.add(Thread.currentThread().getName());
			return json.map(record);
		};
		Run run = start(ShareConfig.custom("spread-share", List.of("spread")).threads(3).batchSize(20).build(), mapper,
				DeadLetterPublisher.loggingOnly());
		try {
			// every thread a member before the records exist: none drains them all alone
			ShareGroupFeature.awaitMembers(kafka.bootstrapServers(), "spread-share", 3, Duration.ofSeconds(60));
			for (int v = 1; v <= versions; v++) {
				for (int k = 0; k < keys; k++) {
					producer.send(new ProducerRecord<>("spread", "k" + k, "{\"v\":" + v + ",\"name\":\"n" + v + "\"}"));
				}
			}
			producer.flush();
			await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
				for (int k = 0; k < keys; k++) {
					assertThat(reader.sync().hgetall("spread:k" + k)).as("k" + k)
						.containsEntry("name", "n" + versions)
						.containsEntry(VersionGuard.VERSION_FIELD, Integer.toString(versions));
				}
				assertThat(run.registry.get("sawmill.share.acknowledgements").tag("type", "accept").counter().count())
					.isGreaterThanOrEqualTo(keys * versions);
			});
			assertThat(threads).as("every thread received records").hasSize(3);
			try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
				ShareBacklog backlog = new ShareBacklog(admin, "spread-share", run.registry, Duration.ofSeconds(1));
				await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
					backlog.refresh();
					assertThat(run.registry.find("sawmill.share.backlog.records").gauges())
						.as("both partitions, nothing left unacknowledged")
						.hasSize(2)
						.allSatisfy(gauge -> assertThat(gauge.value()).isZero());
				});
			}
		}
		finally {
			run.stop();
		}
	}

	@Test
	void shouldRejectAPoisonRecordOnlyAfterItsDeadLetterWasPublishedWithItsReason() {
		kafka.createTopic("poison", 1);
		produce("poison", "a", "{\"v\":1}");
		produce("poison", "bad", "not json");
		produce("poison", "b", "{\"v\":1}");
		List<DeadLetter> published = new CopyOnWriteArrayList<>();
		RecordMapper mapper = JsonHashMapper
			.of(JsonHashMapperConfig.custom().keyTemplate("poison:{@key}").version("field:v").build());
		Run run = start(ShareConfig.custom("poison-share", List.of("poison")).build(), mapper, published::addAll);
		try {
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(
						run.registry.get("sawmill.share.acknowledgements").tag("type", "reject").counter().count())
					.isEqualTo(1));
			assertThat(published).singleElement().satisfies(letter -> {
				assertThat(new String(letter.record().key(), StandardCharsets.UTF_8)).isEqualTo("bad");
				assertThat(letter.reason()).isNotBlank();
			});
			assertThat(reader.sync().exists("poison:a", "poison:b")).isEqualTo(2);
		}
		finally {
			run.stop();
		}
	}

	@Test
	void shouldReleaseNotRejectWhileRedisIsDownAndWriteOnceItIsBack() {
		kafka.createTopic("outage", 1);
		RecordMapper mapper = JsonHashMapper
			.of(JsonHashMapperConfig.custom().keyTemplate("outage:{@key}").version("field:v").build());
		List<DeadLetter> published = new CopyOnWriteArrayList<>();
		Run run = start(ShareConfig.custom("outage-share", List.of("outage"))
			.backoff(Duration.ofMillis(500), Duration.ofSeconds(2))
			.build(), mapper, published::addAll);
		try {
			redis.stop();
			produce("outage", "x", "{\"v\":7}");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> run.registry.get("sawmill.share.acknowledgements")
					.tag("type", "release")
					.counter()
					.count(), released -> released >= 1);
			redis.start();
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(
						() -> assertThat(reader.sync().hget("outage:x", VersionGuard.VERSION_FIELD)).isEqualTo("7"));
			assertThat(run.registry.get("sawmill.share.acknowledgements").tag("type", "reject").counter().count())
				.isZero();
			assertThat(run.registry.get("sawmill.share.redeliveries").counter().count()).isGreaterThanOrEqualTo(1);
			assertThat(published).isEmpty();
		}
		finally {
			run.stop();
			redis.start();
		}
	}

	private static Run start(ShareConfig config, RecordMapper mapper, DeadLetterPublisher deadLetters) {
		try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
			ShareGroups.startFromEarliestUnlessSet(admin, config.groupId(), Duration.ofSeconds(30));
		}
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> client,
				PipelineConfig.custom().timeout(Duration.ofSeconds(2)).build(), false,
				List.of(VersionGuard.librarySource()));
		ShareConsumers consumers = ShareConsumers.of(config, Map.of("bootstrap.servers", kafka.bootstrapServers()),
				mapper, writer, deadLetters, new SawmillMetrics(registry, config.groupId()),
				new ShareMetrics(registry, config.groupId()));
		consumers.start();
		return new Run(consumers, writer, registry);
	}

	private static void produce(String topic, String key, String value) {
		producer.send(new ProducerRecord<>(topic, key, value));
		producer.flush();
	}

	private record Run(ShareConsumers consumers, LettucePipelinedWriter writer, SimpleMeterRegistry registry) {

		void stop() {
			consumers.stop();
			writer.close();
		}

	}

}
