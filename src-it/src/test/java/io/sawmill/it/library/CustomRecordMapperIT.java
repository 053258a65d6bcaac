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
package io.sawmill.it.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.deadletter.internal.KafkaDeadLetterPublisher;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.Scrape;
import io.sawmill.mapping.RecordMapper;

/**
 * Sawmill as a library, the way the README tells a user to use it: their own Spring Boot
 * application with sawmill-core on the classpath, a few properties and a
 * {@link RecordMapper} bean ({@link LeaderboardMapper}) that writes commands of its own
 * ({@code SET … EX}, {@code ZADD}, {@code DEL}, {@code ZREM}) instead of the built-in
 * JSON-to-hash mapping. None of sawmill-app's configuration is loaded. Real broker, real
 * redis-server. Its admin endpoint, once exposed, is read-only until the user opts in to
 * the write operations.
 */
class CustomRecordMapperIT {

	private static final String TOPIC = "scores";

	private static final int PARTITIONS = 3;

	private static final int PLAYERS = 500;

	private static final int VERSIONS = 4;

	/** Players p0 … p49 leave: a tombstone after their last score. */
	private static final int LEAVING = 50;

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, PARTITIONS);

	/** A user's application: nothing but Boot's auto-configuration and the mapper. */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class ScoreService {

		@Bean
		RecordMapper leaderboardMapper() {
			return new LeaderboardMapper();
		}

	}

	@Test
	void shouldApplyTheUsersOwnCommandsInOrderAndDeadLetterWhatTheirMapperRejects() throws Exception {
		String bootstrap = servers.kafka().bootstrapServers();
		try (ConfigurableApplicationContext app = start(bootstrap);
				Admin admin = Kafka.admin(bootstrap);
				RedisClient client = RedisClient
					.create(RedisURI.create(servers.redis().host(), servers.redis().port()));
				StatefulRedisConnection<String, String> connection = client.connect()) {
			// every player's versions in order, interleaved with the other players'
			Kafka.produce(bootstrap, TOPIC, 0, (long) PLAYERS * VERSIONS, id -> player(id % PLAYERS),
					id -> utf8(event(id % PLAYERS, id / PLAYERS)));
			for (int p = 0; p < LEAVING; p++) {
				Kafka.produceOne(bootstrap, TOPIC, utf8(player(p)), null);
			}
			Kafka.produceOne(bootstrap, TOPIC, utf8("p-broken"), utf8("{\"player\": \"p-broken\", score"));
			Kafka.produceOne(bootstrap, TOPIC, utf8("p-words"), utf8("{\"player\":\"p-words\",\"score\":\"high\"}"));

			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
			await().atMost(Duration.ofMinutes(2)).until(() -> Kafka.committedOffsets(admin, "leaderboard").equals(end));

			RedisCommands<String, String> redis = connection.sync();
			for (int p = LEAVING; p < PLAYERS; p++) {
				String key = "player:" + player(p);
				assertThat(redis.get(key)).as(key).isEqualTo(event(p, VERSIONS - 1));
				assertThat(redis.ttl(key)).as(key).isBetween(1L, 3600L);
				assertThat(redis.zscore("leaderboard", player(p))).as(key).isEqualTo(score(p, VERSIONS - 1));
			}
			for (int p = 0; p < LEAVING; p++) {
				assertThat(redis.exists("player:" + player(p))).isZero();
				assertThat(redis.zscore("leaderboard", player(p))).isNull();
			}
			assertThat(redis.zcard("leaderboard")).isEqualTo(PLAYERS - LEAVING);
			assertThat(redis.exists("player:p-broken", "player:p-words")).isZero();

			List<ConsumerRecord<byte[], byte[]>> dead = Kafka.readAll(bootstrap, TOPIC + ".DLT", 2);
			Map<String, String> reasons = dead.stream()
				.collect(Collectors.toMap(r -> new String(r.key(), StandardCharsets.UTF_8),
						r -> new String(r.headers().lastHeader(KafkaDeadLetterPublisher.REASON_HEADER).value(),
								StandardCharsets.UTF_8)));
			assertThat(reasons).containsOnlyKeys("p-broken", "p-words");
			assertThat(reasons.get("p-broken")).startsWith("value is not valid JSON");
			assertThat(reasons.get("p-words")).isEqualTo("score is missing or not a whole number");

			MeterRegistry registry = app.getBean(MeterRegistry.class);
			assertThat(registry.get("sawmill.records").tag("outcome", "written").counter().count())
				.isEqualTo((double) PLAYERS * VERSIONS + LEAVING);
			assertThat(registry.get("sawmill.records").tag("outcome", "dead_lettered").counter().count()).isEqualTo(2);
		}
	}

	@Test
	void shouldKeepTheAdminWriteOperationsReadOnlyInAUsersApplicationUntilTheyOptIn() throws Exception {
		String bootstrap = servers.kafka().bootstrapServers();
		try (ConfigurableApplicationContext app = startWithWeb(bootstrap, "admin-default")) {
			int port = app.getBean(Environment.class).getRequiredProperty("local.server.port", Integer.class);
			assertThat(Scrape.get(port, "/actuator/sawmill/partitions")).contains("\"group\":\"admin-default\"");
			assertThat(post(port, "pause").statusCode()).isBetween(400, 499);
		}
		try (ConfigurableApplicationContext app = startWithWeb(bootstrap, "admin-opted-in",
				"--management.endpoint.sawmill.access=unrestricted")) {
			int port = app.getBean(Environment.class).getRequiredProperty("local.server.port", Integer.class);
			assertThat(post(port, "pause").statusCode()).isEqualTo(200);
		}
	}

	/**
	 * The user's application on a web server, the endpoint exposed, as Boot's docs say.
	 */
	private static ConfigurableApplicationContext startWithWeb(String bootstrap, String group, String... more) {
		List<String> args = new ArrayList<>(List.of("--spring.config.location=optional:classpath:/no-such-config/",
				"--sawmill.topics=" + TOPIC, "--sawmill.group-id=" + group,
				"--spring.kafka.bootstrap-servers=" + bootstrap, "--spring.data.redis.host=" + servers.redis().host(),
				"--spring.data.redis.port=" + servers.redis().port(), "--server.port=0",
				"--management.endpoints.web.exposure.include=sawmill"));
		args.addAll(List.of(more));
		return new SpringApplicationBuilder(ScoreService.class).bannerMode(Banner.Mode.OFF)
			.web(WebApplicationType.SERVLET)
			.run(args.toArray(String[]::new));
	}

	private static HttpResponse<String> post(int port, String operation) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/sawmill/" + operation))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString("{}"))
				.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * What the README lists: the topics, the group, Kafka and Redis; no key template, no
	 * app defaults.
	 */
	private static ConfigurableApplicationContext start(String bootstrap) {
		return new SpringApplicationBuilder(ScoreService.class).bannerMode(Banner.Mode.OFF)
			.web(WebApplicationType.NONE)
			.run("--spring.config.location=optional:classpath:/no-such-config/", "--sawmill.topics=" + TOPIC,
					"--sawmill.group-id=leaderboard", "--spring.kafka.bootstrap-servers=" + bootstrap,
					"--spring.data.redis.host=" + servers.redis().host(),
					"--spring.data.redis.port=" + servers.redis().port());
	}

	private static String player(long p) {
		return "p" + p;
	}

	private static double score(long p, long version) {
		return version * 1_000 + p;
	}

	private static String event(long p, long version) {
		return "{\"player\":\"" + player(p) + "\",\"score\":" + (long) score(p, version) + ",\"version\":" + version
				+ "}";
	}

	private static byte[] utf8(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

}
