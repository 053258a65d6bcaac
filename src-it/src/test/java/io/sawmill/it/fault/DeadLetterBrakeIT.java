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
package io.sawmill.it.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.support.KafkaHeaders;

import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.deadletter.internal.KafkaDeadLetterPublisher;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.it.support.Scrape;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RecordMappingException;
import io.sawmill.mapping.json.JsonHashMapper;
import io.sawmill.mapping.json.JsonHashMapperConfig;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Scenario 11: a mapping bug deployed to the service fails every record. The dead-letter
 * brake engages after a bounded number of dead letters instead of draining the topic into
 * the DLT; nothing is committed past them; health is DOWN naming the partition and the
 * reason. Restarted, or released before the fix, it engages again after the same bound;
 * released after the fix, the rest drains. With {@code release-after}, the fix drains
 * without anyone releasing it.
 */
class DeadLetterBrakeIT {

	private static final String TOPIC = "orders";

	private static final int PARTITIONS = 2;

	/** One version per key: a record is either in Redis or in the DLT. */
	private static final VersionedEvents EVENTS = new VersionedEvents(3_000, 3_000);

	/**
	 * window=100, max-ratio=0.5: the 50th dead letter of a partition engages it before it
	 * is published.
	 */
	private static final int PUBLISHED_PER_PARTITION_BEFORE_IT_ENGAGES = 49;

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, PARTITIONS);

	/**
	 * The deployed mapper: the built-in JSON mapping behind a bug that a fix turns off.
	 */
	@Configuration(proxyBeanMethods = false)
	static class BuggyMapper {

		static final AtomicBoolean bug = new AtomicBoolean(true);

		@Bean
		RecordMapper buggyMapper() {
			RecordMapper mapper = JsonHashMapper.of(JsonHashMapperConfig.custom()
				.keyTemplate(SampleEvents.KEY_TEMPLATE)
				.ttl(Duration.ofHours(1))
				.build());
			return record -> {
				if (bug.get()) {
					throw new RecordMappingException("mapper bug: field 'score' read as a date");
				}
				return mapper.map(record);
			};
		}

	}

	@Test
	void shouldStopAfterABoundedNumberOfDeadLettersAndDrainOnceReleasedAfterTheFix() throws Exception {
		String bootstrap = servers.kafka().bootstrapServers();
		EVENTS.produce(bootstrap, TOPIC, 0, EVENTS.records());
		Map<String, Object> properties = brakeProperties(TOPIC, "brake");
		properties.put("management.endpoint.sawmill.access", "unrestricted");
		BuggyMapper.bug.set(true);
		try (Admin admin = Kafka.admin(bootstrap)) {
			try (ConfigurableApplicationContext app = SawmillApp.run(properties, BuggyMapper.class)) {
				int port = port(app);
				MeterRegistry meters = app.getBean(MeterRegistry.class);

				JsonNode brake = awaitEngaged(port);
				assertThat(brake.path("details").path("reason").asString()).contains("records of orders-")
					.contains("mapper bug: field 'score' read as a date");
				assertThat(meters.get("sawmill.dead.letter.brake.engaged").gauge().value()).isEqualTo(1);
				await().atMost(Duration.ofSeconds(30))
					.until(() -> meters.get("sawmill.listener.paused").gauge().value() == 1);
				assertDeadLettersWithinBoundAndNothingCommittedPastThem(admin, 1);
			}

			// a restart is not a release: the brake engages again after the same bound
			long beforeRestart = deadLetterCount(admin);
			try (ConfigurableApplicationContext app = SawmillApp.run(properties, BuggyMapper.class)) {
				int port = port(app);
				awaitEngaged(port);
				assertThat(deadLetterCount(admin)).as("published again before it engaged").isGreaterThan(beforeRestart);
				assertDeadLettersWithinBoundAndNothingCommittedPastThem(admin, 2);

				// released before the fix: it engages again after the same bound
				long beforeRelease = deadLetterCount(admin);
				assertThat(release(port)).contains("\"released\":true");
				await().atMost(Duration.ofMinutes(2)).until(() -> deadLetterCount(admin) > beforeRelease);
				awaitEngaged(port);
				assertDeadLettersWithinBoundAndNothingCommittedPastThem(admin, 3);

				// the fix, then the release: the rest drains
				BuggyMapper.bug.set(false);
				assertThat(release(port)).contains("\"released\":true");
				Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
				await().atMost(Duration.ofMinutes(3)).until(() -> Kafka.committedOffsets(admin, "brake").equals(end));

				Set<Long> deadIds = readDeadLetters().stream()
					.map(r -> Long.parseLong(new String(r.key(), StandardCharsets.UTF_8).substring(1)))
					.collect(Collectors.toCollection(TreeSet::new));
				List<Long> written = LongStream.range(0, EVENTS.records())
					.boxed()
					.filter(id -> !deadIds.contains(id))
					.toList();
				RedisVerifier.Result result = RedisVerifier.verify(servers.redis().host(), servers.redis().port(),
						written.size(), i -> SampleEvents.key(written.get((int) i)),
						i -> SampleEvents.hash(written.get((int) i), 0), Duration.ofHours(1));
				assertThat(result.allVerified()).as(result.toString()).isTrue();
				assertThat(servers.redis().command("DBSIZE")).as("no dead-lettered record is in Redis")
					.isEqualTo(":" + written.size());
				assertThat(health(port).path("components").path("sawmillDeadLetterBrake").path("status").asString())
					.isEqualTo("UP");
				assertThat(app.getBean(MeterRegistry.class).get("sawmill.dead.letter.brake.engaged").gauge().value())
					.isZero();
			}
		}
	}

	@Test
	void shouldReleaseItselfAfterReleaseAfterSoThatAFixDrainsWithoutAnOperator() throws Exception {
		String topic = "orders-auto";
		String bootstrap = servers.kafka().bootstrapServers();
		// the endpoint read-only, as by default: nobody can release the brake through it
		Map<String, Object> properties = brakeProperties(topic, "brake-auto");
		properties.put("sawmill.dead-letter.brake.release-after", "3s");
		BuggyMapper.bug.set(true);
		try (Admin admin = Kafka.admin(bootstrap)) {
			FaultAssertions.createTopics(admin, topic, PARTITIONS);
			EVENTS.produce(bootstrap, topic, 0, EVENTS.records());
			try (ConfigurableApplicationContext app = SawmillApp.run(properties, BuggyMapper.class)) {
				int port = port(app);
				JsonNode brake = awaitEngaged(port);
				assertThat(brake.path("details").path("releasesAt").asString()).isNotBlank();

				// the fix; no release: the brake releases itself and the rest drains
				BuggyMapper.bug.set(false);
				Map<TopicPartition, Long> end = Kafka.endOffsets(admin, topic, PARTITIONS);
				await().atMost(Duration.ofMinutes(2))
					.until(() -> Kafka.committedOffsets(admin, "brake-auto").equals(end));
				assertThat(health(port).path("components").path("sawmillDeadLetterBrake").path("status").asString())
					.isEqualTo("UP");
			}
		}
	}

	/**
	 * Batches of 20, a brake over each partition's last 100 records at half of them, the
	 * health details and the endpoint exposed.
	 */
	private static Map<String, Object> brakeProperties(String topic, String group) {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, topic, group);
		properties.put("sawmill.batch-size", 20);
		properties.put("sawmill.dead-letter.brake.window", 100);
		properties.put("sawmill.dead-letter.brake.max-ratio", 0.5);
		properties.put("sawmill.dead-letter.brake.max-per-minute", 0);
		properties.put("management.endpoints.web.exposure.include", "health,sawmill");
		properties.put("management.endpoint.health.show-details", "always");
		return properties;
	}

	private static int port(ConfigurableApplicationContext app) {
		return app.getBean(Environment.class).getRequiredProperty("local.server.port", Integer.class);
	}

	/**
	 * Every committed record of a partition was dead-lettered (the bug fails them all),
	 * so each partition's committed offset is at most its dead letters, and those at most
	 * the bound per engagement.
	 * @return the dead letters per source partition
	 */
	private static Map<Integer, Long> assertDeadLettersWithinBoundAndNothingCommittedPastThem(Admin admin,
			int engagements) throws Exception {
		Map<Integer, Long> perPartition = readDeadLetters().stream()
			.collect(Collectors.groupingBy(
					r -> ByteBuffer.wrap(r.headers().lastHeader(KafkaHeaders.DLT_ORIGINAL_PARTITION).value()).getInt(),
					Collectors.counting()));
		assertThat(perPartition.values()).isNotEmpty()
			.allSatisfy(count -> assertThat(count)
				.isLessThanOrEqualTo((long) engagements * PUBLISHED_PER_PARTITION_BEFORE_IT_ENGAGES));
		Map<TopicPartition, Long> committed = Kafka.committedOffsets(admin, "brake");
		committed.forEach((partition, offset) -> assertThat(offset).as("committed offset of %s", partition)
			.isLessThanOrEqualTo(perPartition.getOrDefault(partition.partition(), 0L)));
		return perPartition;
	}

	private static List<ConsumerRecord<byte[], byte[]>> readDeadLetters() throws Exception {
		try (Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			List<ConsumerRecord<byte[], byte[]>> dead = Kafka.readAll(servers.kafka().bootstrapServers(),
					TOPIC + ".DLT", deadLetterCount(admin));
			dead.forEach(
					r -> assertThat(new String(r.headers().lastHeader(KafkaDeadLetterPublisher.REASON_HEADER).value(),
							StandardCharsets.UTF_8))
						.isEqualTo("mapper bug: field 'score' read as a date"));
			return dead;
		}
	}

	private static long deadLetterCount(Admin admin) throws Exception {
		return Kafka.sum(Kafka.endOffsets(admin, TOPIC + ".DLT", PARTITIONS));
	}

	/**
	 * Waits until health is DOWN because of the brake, and stays so; returns the brake's
	 * component.
	 */
	private static JsonNode awaitEngaged(int port) {
		await().atMost(Duration.ofMinutes(2))
			.until(() -> "DOWN"
				.equals(health(port).path("components").path("sawmillDeadLetterBrake").path("status").asString()));
		JsonNode health = health(port);
		assertThat(health.path("status").asString()).isEqualTo("DOWN");
		return health.path("components").path("sawmillDeadLetterBrake");
	}

	private static JsonNode health(int port) {
		return JsonMapper.builder().build().readTree(Scrape.get(port, "/actuator/health"));
	}

	/** The operator's release, through the real endpoint. */
	private static String release(int port) throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/sawmill/brake"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"release\"}"))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return response.body();
	}

}
