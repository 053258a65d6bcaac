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
package io.sawmill.starter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.json.JsonHashMapper;
import io.sawmill.testkit.KafkaTestBroker;
import io.sawmill.testkit.RedisServerProcess;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * A user's project that depends on {@code sawmill-spring-boot-starter} and nothing else
 * of Sawmill: its class path is this module's (the starter's dependencies plus the test
 * kit), not sawmill-app's, so this proves that the starter alone brings everything
 * Sawmill needs. An empty Boot application and five properties, against a real KRaft
 * broker and a real redis-server: every record is written as its hash and every offset
 * committed. The same application, started with {@code --sawmill.doctor.command=true},
 * prints the doctor's report on its own settings and exits with its verdict without
 * joining the group.
 */
class StarterIT {

	private static final String TOPIC = "starter-users";

	private static final String GROUP = "starter";

	private static final int PARTITIONS = 3;

	private static final long RECORDS = 5_000;

	private static KafkaTestBroker kafka;

	private static RedisServerProcess redis;

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class UsersApplication {

		/**
		 * A user's main as it would be, with a setting of the application's own: the
		 * doctor command needs nothing more.
		 */
		public static void main(String[] args) {
			SpringApplication application = new SpringApplication(UsersApplication.class);
			application.setDefaultProperties(Map.of("sawmill.doctor.replicas", "4"));
			application.run(args);
		}

	}

	@BeforeAll
	static void startServers() {
		kafka = KafkaTestBroker.start().createTopic(TOPIC, PARTITIONS);
		redis = RedisServerProcess.startNew();
	}

	@AfterAll
	static void stopServers() {
		if (kafka != null) {
			kafka.close();
		}
		if (redis != null) {
			redis.close();
		}
	}

	@Test
	void shouldStartSawmillFromTheStarterAloneAndWriteEveryRecord() throws Exception {
		try (ConfigurableApplicationContext app = new SpringApplicationBuilder(UsersApplication.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.run("--sawmill.topics=" + TOPIC, "--sawmill.group-id=" + GROUP,
					"--sawmill.mapping.key-template=" + SampleEvents.KEY_TEMPLATE,
					"--spring.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
					"--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port());
				Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
			assertThat(app.getBean(RecordMapper.class)).isInstanceOf(JsonHashMapper.class);

			produce();
			Map<TopicPartition, Long> end = endOffsets(admin);
			assertThat(end.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(RECORDS);
			await().atMost(Duration.ofMinutes(2))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> committedOffsets(admin).equals(end));

			RedisVerifier.Result result = RedisVerifier.verify(redis.host(), redis.port(), RECORDS, SampleEvents::key,
					SampleEvents::hash, null);
			assertThat(result.allVerified()).as(result.toString()).isTrue();
		}
	}

	@Test
	void shouldRunTheDoctorCommandWithTheApplicationsOwnSettingsAndExitWithItsVerdictWithoutConsuming(@TempDir Path dir)
			throws Exception {
		String group = "starter-doctor";
		Path out = dir.resolve("doctor.out");
		Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
				UsersApplication.class.getName(), "--sawmill.doctor.command=true", "--sawmill.topics=" + TOPIC,
				"--sawmill.group-id=" + group, "--sawmill.mapping.key-template=" + SampleEvents.KEY_TEMPLATE,
				"--spring.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
				"--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port())
			.redirectErrorStream(true)
			.redirectOutput(out.toFile())
			.start();
		boolean exited = process.waitFor(90, TimeUnit.SECONDS);
		if (!exited) {
			process.destroyForcibly();
		}
		String report = Files.readString(out);

		assertThat(exited).as(report).isTrue();
		assertThat(report).contains("Sawmill doctor: ")
			.contains("kafka.partitions",
					"3 partitions (starter-users 3) for 4 consumers (sawmill.concurrency 1 x 4 replicas)")
			.contains("redis.");
		assertThat(process.exitValue()).as(report).isEqualTo(report.contains("Sawmill doctor: FAIL") ? 1 : 0);
		try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
			assertThat(admin.listGroups().all().get(30, TimeUnit.SECONDS)).as("no consumer of %s joined", group)
				.noneMatch(listing -> listing.groupId().equals(group));
		}
	}

	private static void produce() {
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
				Map.of("bootstrap.servers", kafka.bootstrapServers(), "acks", "all"), new ByteArraySerializer(),
				new ByteArraySerializer())) {
			for (long id = 0; id < RECORDS; id++) {
				producer.send(new ProducerRecord<>(TOPIC, SampleEvents.userId(id).getBytes(StandardCharsets.UTF_8),
						SampleEvents.json(id)));
			}
			producer.flush();
		}
	}

	private static Map<TopicPartition, Long> endOffsets(Admin admin) throws Exception {
		Map<TopicPartition, OffsetSpec> request = IntStream.range(0, PARTITIONS)
			.boxed()
			.collect(Collectors.toMap(p -> new TopicPartition(TOPIC, p), p -> OffsetSpec.latest()));
		return admin.listOffsets(request)
			.all()
			.get(30, TimeUnit.SECONDS)
			.entrySet()
			.stream()
			.collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
	}

	private static Map<TopicPartition, Long> committedOffsets(Admin admin) throws Exception {
		Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(GROUP)
			.partitionsToOffsetAndMetadata()
			.get(30, TimeUnit.SECONDS);
		return committed.entrySet()
			.stream()
			.filter(e -> e.getValue() != null)
			.collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
	}

}
