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
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;

/**
 * {@code /actuator/health} answers while an established Redis connection hangs: the
 * redis-server is SIGSTOPped, so its connections stay open and nothing answers (Lettuce's
 * command timeout, and so Spring Data Redis' own health check, would wait 60 s). Both
 * Redis contributors must report DOWN with the reason within
 * {@code sawmill.health.timeout}; the test's bound on the HTTP call is well above that
 * and well below 60 s. After SIGCONT, health is UP again.
 */
class RedisFrozenHealthIT {

	private static final String TOPIC = "frozen-health";

	/**
	 * Far above sawmill.health.timeout (2 s), far below the 60 s a blocked health check
	 * took.
	 */
	private static final Duration HTTP_BOUND = Duration.ofSeconds(20);

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, 1);

	@Test
	void shouldReportRedisDownWithTheReasonInsteadOfBlockingWhileRedisIsFrozen() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "frozen-health");
		properties.put("management.endpoint.health.show-details", "always");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties)) {
			int port = app.getBean(Environment.class).getRequiredProperty("local.server.port", Integer.class);
			// the first check opens the connections that freezing will leave hanging
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(health(port).statusCode()).isEqualTo(200));
			long pid = redisPid();

			signal("STOP", pid);
			try {
				for (int call = 0; call < 2; call++) {
					HttpResponse<String> frozen = health(port);
					assertThat(frozen.statusCode()).isEqualTo(503);
					assertThat(frozen.body())
						.contains(
								"\"redis\":{\"details\":{\"error\":\"no answer within 2000 ms\"},\"status\":\"DOWN\"}")
						.contains(
								"\"sawmillRedis\":{\"details\":{\"error\":\"no answer within 2000 ms\"},\"status\":\"DOWN\"}");
				}
			}
			finally {
				signal("CONT", pid);
			}
			await().atMost(Duration.ofSeconds(90))
				.untilAsserted(() -> assertThat(health(port).statusCode()).isEqualTo(200));
		}
	}

	/** One GET of /actuator/health, which must complete within {@link #HTTP_BOUND}. */
	private static HttpResponse<String> health(int port) throws Exception {
		HttpClient client = HttpClient.newHttpClient();
		CompletableFuture<HttpResponse<String>> response = client.sendAsync(
				HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health")).build(),
				HttpResponse.BodyHandlers.ofString());
		return response.get(HTTP_BOUND.toSeconds(), TimeUnit.SECONDS);
	}

	private static long redisPid() {
		RedisClient client = RedisClient.create(RedisURI.create(servers.redis().host(), servers.redis().port()));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			return connection.sync()
				.info("server")
				.lines()
				.filter(line -> line.startsWith("process_id:"))
				.mapToLong(line -> Long.parseLong(line.substring("process_id:".length()).trim()))
				.findFirst()
				.orElseThrow();
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	private static void signal(String signal, long pid) throws Exception {
		Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
		assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
		assertThat(kill.exitValue()).isZero();
	}

}
