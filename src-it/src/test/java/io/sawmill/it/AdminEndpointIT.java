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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import io.sawmill.admin.internal.SawmillOperations;
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
 * The operator's endpoint on the real service, real broker and real redis-server: the
 * partitions view of a backlog, a paused topic that does not progress while the circuit
 * stays closed, a resume that drains it, a poison record re-driven from the DLT after the
 * fix, a too-large range refused, one route (by topic-pattern) paused and resumed by its
 * name while another flows, and write operations refused where the endpoint is read-only.
 */
class AdminEndpointIT {

	private static final String TOPIC = "orders";

	private static final int PARTITIONS = 2;

	private static final int RECORDS = 1_000;

	private static final long POISON = 7;

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, PARTITIONS)
		.andTopic("clicks", 1)
		.andTopic("carts", 1);

	/** The built-in JSON mapping with a bug on one record that the test fixes. */
	@Configuration(proxyBeanMethods = false)
	static class PoisonMapper {

		static final AtomicBoolean bug = new AtomicBoolean(true);

		@Bean
		RecordMapper poisonMapper() {
			RecordMapper mapper = JsonHashMapper.of(JsonHashMapperConfig.custom()
				.keyTemplate(SampleEvents.KEY_TEMPLATE)
				.ttl(Duration.ofHours(1))
				.build());
			byte[] poison = SampleEvents.userId(POISON).getBytes(StandardCharsets.UTF_8);
			return record -> {
				if (bug.get() && java.util.Arrays.equals(record.key(), poison)) {
					throw new RecordMappingException("mapper bug on " + SampleEvents.userId(POISON));
				}
				return mapper.map(record);
			};
		}

	}

	@Test
	void shouldShowPauseResumeAndRedriveDeadLettersAfterTheFix() throws Exception {
		String bootstrap = servers.kafka().bootstrapServers();
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "admin");
		properties.put("management.endpoint.sawmill.access", "unrestricted");
		properties.put("sawmill.dead-letter.max-redrive-records", 100);
		PoisonMapper.bug.set(true);
		try (Admin admin = Kafka.admin(bootstrap);
				ConfigurableApplicationContext app = SawmillApp.run(properties, PoisonMapper.class)) {
			int port = port(app);
			await().atMost(Duration.ofMinutes(2))
				.until(() -> partitions(port).findValues("assigned")
					.stream()
					.filter(JsonNode::asBoolean)
					.count() == PARTITIONS);

			// paused by the operator: a backlog builds, nothing is committed, the circuit
			// stays closed
			HttpResponse<String> pause = post(port, "pause", "{\"topic\":\"" + TOPIC + "\"}");
			assertThat(pause.statusCode()).as(pause.body()).isEqualTo(200);
			assertThat(json(pause.body()).path("confirmed").asBoolean()).as(pause.body()).isTrue();
			Map<TopicPartition, Long> before = Kafka.committedOffsets(admin, "admin");
			Kafka.produce(bootstrap, TOPIC, 0, RECORDS, SampleEvents::userId, SampleEvents::json);
			await().atMost(Duration.ofMinutes(1)).until(() -> lagRecords(partitions(port)) == RECORDS);
			await().during(Duration.ofSeconds(5))
				.atMost(Duration.ofSeconds(30))
				.until(() -> Kafka.committedOffsets(admin, "admin").equals(before));
			JsonNode paused = partitions(port);
			assertThat(paused.path("circuit").asString()).isEqualTo("CLOSED");
			assertThat(paused.findValues("paused")).hasSize(PARTITIONS).allMatch(JsonNode::asBoolean);
			assertThat(paused.findValues("pausedBecause")).allMatch(why -> why.toString().equals("[\"operator\"]"));
			assertThat(paused.findValues("consumer")).allMatch(consumer -> !consumer.isNull());
			assertThat(lagRecords(paused)).isEqualTo(RECORDS);
			assertThat(servers.redis().command("DBSIZE")).isEqualTo(":0");

			// resumed: it drains; the poison record is dead-lettered
			assertThat(post(port, "resume", "{\"topic\":\"" + TOPIC + "\"}").statusCode()).isEqualTo(200);
			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
			await().atMost(Duration.ofMinutes(2)).until(() -> Kafka.committedOffsets(admin, "admin").equals(end));
			assertThat(servers.redis().command("DBSIZE")).isEqualTo(":" + (RECORDS - 1));
			await().atMost(Duration.ofMinutes(1))
				.until(() -> partitions(port).path("topics").get(0).path("deadLetters").asLong() == 1);
			// at-least-once: nothing fenced, no offset reset found
			assertThat(partitions(port).path("topics").get(0).path("fenced").asLong()).isZero();
			assertThat(partitions(port).path("offsetResets").path("replayed").asLong()).isZero();
			assertThat(partitions(port).path("offsetResets").path("refused").asLong()).isZero();
			ConsumerRecord<byte[], byte[]> deadLetter = Kafka.readAll(bootstrap, TOPIC + ".DLT", 1).get(0);

			// too large a range is refused, with the maximum named
			HttpResponse<String> tooLarge = post(port, "redrive", redrive(deadLetter.partition(), 0, 101));
			assertThat(tooLarge.statusCode()).isEqualTo(400);

			// fixed, then re-driven by range: the record is in Redis, through the normal
			// path
			PoisonMapper.bug.set(false);
			HttpResponse<String> redriven = post(port, "redrive",
					redrive(deadLetter.partition(), deadLetter.offset(), deadLetter.offset() + 1));
			assertThat(redriven.statusCode()).as(redriven.body()).isEqualTo(200);
			assertThat(json(redriven.body()).path("redriven").asInt()).isEqualTo(1);
			await().atMost(Duration.ofMinutes(1)).until(() -> servers.redis().command("DBSIZE").equals(":" + RECORDS));
			RedisVerifier.Result result = RedisVerifier.verify(servers.redis().host(), servers.redis().port(), RECORDS,
					SampleEvents::key, SampleEvents::hash, Duration.ofHours(1));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
			List<ConsumerRecord<byte[], byte[]>> source = Kafka.readAll(bootstrap, TOPIC, RECORDS + 1);
			assertThat(source).filteredOn(r -> r.headers().lastHeader(SawmillOperations.REDRIVEN_FROM_HEADER) != null)
				.singleElement()
				.satisfies(r -> assertThat(r.partition()).isEqualTo(partitionOf(deadLetter)));
		}
	}

	@Test
	void shouldPauseAndResumeOneRouteByNameWhileTheOtherRouteFlows() throws Exception {
		String bootstrap = servers.kafka().bootstrapServers();
		Map<String, Object> properties = SawmillApp.baseProperties(servers, "unused", "admin-routes");
		properties.remove("sawmill.topics");
		properties.remove("sawmill.mapping.key-template");
		properties.remove("sawmill.mapping.ttl");
		properties.put("management.endpoint.sawmill.access", "unrestricted");
		properties.put("sawmill.routes[0].name", "click-hashes");
		// by pattern: paused by its name, and checked by the doctor, like a route of
		// named topics
		properties.put("sawmill.routes[0].topic-pattern", "clicks(-[a-z]+)?");
		properties.put("sawmill.routes[0].dead-letter-topic", "click-hashes-dlt");
		properties.put("sawmill.routes[0].key-template", "click:{@key}");
		properties.put("sawmill.routes[1].name", "cart-strings");
		properties.put("sawmill.routes[1].topics", "carts");
		properties.put("sawmill.routes[1].type", "STRING");
		properties.put("sawmill.routes[1].key-template", "cart:{@key}");
		try (Admin admin = Kafka.admin(bootstrap); ConfigurableApplicationContext app = SawmillApp.run(properties)) {
			int port = port(app);
			await().atMost(Duration.ofMinutes(2))
				.until(() -> partitions(port).findValues("assigned").stream().filter(JsonNode::asBoolean).count() == 2);
			assertThat(partitions(port).path("topics").findValuesAsString("route"))
				.containsExactlyInAnyOrder("click-hashes", "cart-strings");
			JsonNode doctor = json(Scrape.get(port, "/actuator/sawmill"));
			assertThat(doctor.path("findings").findParents("check"))
				.filteredOn(finding -> finding.path("check").asString().equals("kafka.partitions"))
				.singleElement()
				.satisfies(finding -> assertThat(finding.path("measured").asString())
					.startsWith("2 partitions (carts 1, clicks 1) for"));

			HttpResponse<String> pause = post(port, "pause", "{\"topic\":\"click-hashes\"}");
			assertThat(pause.statusCode()).as(pause.body()).isEqualTo(200);
			assertThat(json(pause.body()).path("paused").toString())
				.isEqualTo("[\"topics matching clicks(-[a-z]+)?\"]");
			assertThat(json(pause.body()).path("confirmed").asBoolean()).as(pause.body()).isTrue();
			Map<TopicPartition, Long> clicksBefore = Map.copyOf(Kafka.committedOffsets(admin, "admin-routes"));
			Kafka.produce(bootstrap, "clicks", 0, 100, i -> "k" + i,
					i -> ("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8));
			Kafka.produce(bootstrap, "carts", 0, 100, i -> "k" + i,
					i -> ("cart " + i).getBytes(StandardCharsets.UTF_8));

			// the other route flows while this one is paused
			Map<TopicPartition, Long> carts = Kafka.endOffsets(admin, "carts", 1);
			await().atMost(Duration.ofMinutes(1))
				.until(() -> Kafka.committedOffsets(admin, "admin-routes").entrySet().containsAll(carts.entrySet()));
			assertThat(Redis.read(servers, r -> r.get("cart:k99"))).isEqualTo("cart 99");
			JsonNode view = partitions(port);
			for (JsonNode topic : view.path("topics")) {
				boolean clicks = topic.path("topic").asString().equals("clicks");
				assertThat(topic.path("partitions").get(0).path("paused").asBoolean()).as(topic.toString())
					.isEqualTo(clicks);
				assertThat(topic.path("partitions").get(0).path("pausedBecause").toString())
					.isEqualTo(clicks ? "[\"operator\"]" : "[]");
			}
			assertThat(Kafka.committedOffsets(admin, "admin-routes").get(new TopicPartition("clicks", 0)))
				.isEqualTo(clicksBefore.get(new TopicPartition("clicks", 0)));
			assertThat(servers.redis().command("EXISTS", "click:k0")).isEqualTo(":0");

			// resumed by the route's name: it drains
			assertThat(post(port, "resume", "{\"topic\":\"click-hashes\"}").statusCode()).isEqualTo(200);
			Map<TopicPartition, Long> clicks = Kafka.endOffsets(admin, "clicks", 1);
			await().atMost(Duration.ofMinutes(1))
				.until(() -> Kafka.committedOffsets(admin, "admin-routes").entrySet().containsAll(clicks.entrySet()));
			assertThat(Redis.read(servers, r -> r.hget("click:k99", "n"))).isEqualTo("99");
		}
		finally {
			// the other tests count the keys of the shared redis-server
			servers.redis().command("FLUSHALL");
		}
	}

	@Test
	void shouldRefuseWriteOperationsWhereTheEndpointIsReadOnly() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "admin-read-only");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties, PoisonMapper.class)) {
			int port = port(app);
			assertThat(partitions(port).path("group").asString()).isEqualTo("admin-read-only");
			assertThat(post(port, "pause", "{}").statusCode()).isBetween(400, 499);
			assertThat(post(port, "redrive", redrive(0, 0, 1)).statusCode()).isBetween(400, 499);
			assertThat(partitions(port).path("operatorPaused").size()).isZero();
		}
	}

	/**
	 * Reads the test's redis-server with Lettuce (the test kit's raw command returns only
	 * a reply's first line).
	 */
	private static final class Redis {

		static String read(RealServers servers,
				java.util.function.Function<io.lettuce.core.api.sync.RedisCommands<String, String>, String> read) {
			io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient
				.create("redis://" + servers.redis().host() + ":" + servers.redis().port());
			try (var connection = client.connect()) {
				return read.apply(connection.sync());
			}
			finally {
				client.shutdown();
			}
		}

	}

	private static int partitionOf(ConsumerRecord<byte[], byte[]> deadLetter) {
		return java.nio.ByteBuffer
			.wrap(deadLetter.headers()
				.lastHeader(org.springframework.kafka.support.KafkaHeaders.DLT_ORIGINAL_PARTITION)
				.value())
			.getInt();
	}

	private static String redrive(int partition, long from, long to) {
		return "{\"topic\":\"" + TOPIC + ".DLT\",\"partition\":" + partition + ",\"from\":" + from + ",\"to\":" + to
				+ "}";
	}

	private static long lagRecords(JsonNode view) {
		return view.findValues("lagRecords").stream().mapToLong(JsonNode::asLong).sum();
	}

	private static int port(ConfigurableApplicationContext app) {
		return app.getBean(Environment.class).getRequiredProperty("local.server.port", Integer.class);
	}

	private static JsonNode partitions(int port) {
		return json(Scrape.get(port, "/actuator/sawmill/partitions"));
	}

	private static JsonNode json(String body) {
		return JsonMapper.builder().build().readTree(body);
	}

	private static HttpResponse<String> post(int port, String part, String body) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/sawmill/" + part))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString());
	}

}
