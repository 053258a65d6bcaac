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
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import io.sawmill.app.DoctorCommand;
import io.sawmill.app.SawmillApplication;
import io.sawmill.it.fault.SawmillProcess;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.it.support.Scrape;
import io.sawmill.testkit.SampleEvents;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The doctor as an operator meets it, against a real broker and a real redis-server whose
 * {@code maxmemory-policy allkeys-lru} (with a memory limit) is a FAIL finding: the jar's
 * {@code doctor} command configured by environment variables, the same command's exit
 * code when nothing fails, and the report at {@code /actuator/sawmill} and in the
 * start-up log of the running service.
 */
class DoctorIT {

	private static final String TOPIC = "doctor-events";

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, 2)
		.redisArgs("--maxmemory-policy", "allkeys-lru", "--maxmemory", "64mb");

	@Test
	void shouldPrintTheReportAndExitWithOneOnAFailFindingWithoutConsumingWhenTheJarRunsTheDoctorCommand(
			@TempDir Path dir) throws Exception {
		Kafka.produceOne(servers.kafka().bootstrapServers(), TOPIC, "k".getBytes(StandardCharsets.UTF_8),
				SampleEvents.json(1));
		List<String> command = new ArrayList<>(List.of(
				Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
				"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", SawmillProcess.execJar().toString(), "doctor"));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(dir.resolve("doctor.out").toFile());
		Map<String, String> env = builder.environment();
		env.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", servers.kafka().bootstrapServers());
		env.put("SPRING_DATA_REDIS_HOST", servers.redis().host());
		env.put("SPRING_DATA_REDIS_PORT", Integer.toString(servers.redis().port()));
		env.put("SAWMILL_TOPICS", TOPIC);
		env.put("SAWMILL_GROUP_ID", "doctor-command");
		env.put("SAWMILL_MAPPING_KEY_TEMPLATE", SampleEvents.KEY_TEMPLATE);
		env.put("SAWMILL_DOCTOR_ZONE", "zone-a");
		env.put("SAWMILL_DOCTOR_REDIS_ZONE", "zone-b");
		env.put("SAWMILL_DOCTOR_REPLICAS", "3");
		Process process = builder.start();
		boolean exited = process.waitFor(120, TimeUnit.SECONDS);
		if (!exited) {
			process.destroyForcibly();
		}
		String output = java.nio.file.Files.readString(dir.resolve("doctor.out"));

		assertThat(exited).as(output).isTrue();
		assertThat(process.exitValue()).as(output).isEqualTo(1);
		assertThat(output).startsWith("Sawmill doctor: FAIL")
			.contains("[FAIL]  redis.maxmemory-policy")
			.contains("maxmemory-policy allkeys-lru, maxmemory 67108864")
			.contains("[WARN]  redis.zone", "this pod in zone-a, the master in zone-b")
			.contains("[WARN]  kafka.partitions", "2 partitions (doctor-events 2) for 3 consumers")
			.contains("[FAIL]  redis.persistence");
		try (Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			assertThat(Kafka.committedOffsets(admin, "doctor-command")).isEmpty();
		}
		assertThat(servers.redis().command("DBSIZE")).isEqualTo(":0");
	}

	@Test
	void shouldExitWithZeroWhenNoFindingFails(@TempDir Path emptyHost) {
		servers.redis().command("CONFIG", "SET", "maxmemory-policy", "noeviction");
		servers.redis().command("CONFIG", "SET", "appendonly", "yes");
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		int exit;
		try {
			Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "doctor-direct");
			// host findings UNKNOWN whatever machine runs this
			properties.put("sawmill.doctor.host-root", emptyHost);
			exit = DoctorCommand.run(SawmillApplication.class, Kafka.args(properties).toArray(String[]::new),
					new PrintStream(out, true, StandardCharsets.UTF_8));
		}
		finally {
			servers.redis().command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
			servers.redis().command("CONFIG", "SET", "appendonly", "no");
		}
		String report = out.toString(StandardCharsets.UTF_8);

		assertThat(exit).as(report).isZero();
		assertThat(report).startsWith("Sawmill doctor: WARN")
			.contains("[OK]    redis.maxmemory-policy")
			.contains("[OK]    redis.persistence")
			.contains("[UNKNOWN] cpu.throttling")
			.doesNotContain("[FAIL]");
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void shouldServeTheReportAtTheSawmillEndpointAndLogTheProblemsAtStartUp(CapturedOutput log) throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "doctor-endpoint");
		properties.put("sawmill.doctor.zone", "zone-a");
		properties.put("sawmill.doctor.redis-zone", "zone-a");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties)) {
			int port = app.getBean(Environment.class).getRequiredProperty("local.server.port", Integer.class);

			JsonNode report = JsonMapper.builder().build().readTree(Scrape.get(port, "/actuator/sawmill"));

			assertThat(report.get("verdict").asString()).isEqualTo("FAIL");
			JsonNode eviction = finding(report, "redis.maxmemory-policy");
			assertThat(eviction.get("verdict").asString()).isEqualTo("FAIL");
			assertThat(eviction.get("measured").asString())
				.endsWith("maxmemory-policy allkeys-lru, maxmemory 67108864");
			assertThat(eviction.get("why").asString()).isNotBlank();
			assertThat(eviction.get("change").asString()).contains("noeviction");
			assertThat(finding(report, "redis.zone").get("verdict").asString()).isEqualTo("OK");
			// one sawmill endpoint: the report at its root, the dead-letter brake below
			// it
			assertThat(Scrape.get(port, "/actuator/sawmill/brake")).contains("\"state\"");
			// read-only by default: the brake's release (a write) is not mapped
			HttpResponse<String> release = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/sawmill/brake"))
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"release\"}"))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(release.statusCode()).isBetween(400, 499);
			assertThat(finding(report, "kafka.partitions").get("measured").asString())
				.isEqualTo("2 partitions (doctor-events 2) for sawmill.concurrency 1 x unknown replicas");

			// Boot's logging set-up replaces appenders added before the start, so the
			// console output is read
			await().atMost(Duration.ofSeconds(60)).until(() -> log.getOut().contains("Sawmill doctor: FAIL ("));
			assertThat(log.getOut()).contains("Sawmill doctor FAIL redis.maxmemory-policy: ")
				.doesNotContain("Sawmill doctor OK");
		}
	}

	private static JsonNode finding(JsonNode report, String check) {
		for (JsonNode finding : report.get("findings")) {
			if (finding.get("check").asString().equals(check)) {
				return finding;
			}
		}
		throw new AssertionError("no finding " + check + " in " + report);
	}

}
