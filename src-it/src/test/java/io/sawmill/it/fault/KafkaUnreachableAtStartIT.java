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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sawmill.testkit.RedisServerProcess;

/**
 * The packaged service started while no Kafka broker listens on its bootstrap servers (a
 * closed loopback port; Redis is up): it must give up by itself, with a non-zero exit
 * code, one message that says what to fix, and a log small enough to read, rather than a
 * client reconnecting in a loop. The time bound is on the outcome (the process exits at
 * all, before a startup probe of the start-up timeout plus a generous margin would kill
 * it), not a speed target.
 */
class KafkaUnreachableAtStartIT {

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(10);

	@Test
	void shouldExitNonZeroWithOneClearMessageAndASmallLogWhenKafkaCannotBeReached(@TempDir Path dir) throws Exception {
		int closedPort = RedisServerProcess.freePort();
		Path log = dir.resolve("sawmill.log");
		try (RedisServerProcess redis = RedisServerProcess.startNew()) {
			Map<String, Object> properties = new LinkedHashMap<>();
			properties.put("sawmill.topics", "events");
			properties.put("sawmill.group-id", "unreachable");
			properties.put("sawmill.mapping.key-template", "{@key}");
			properties.put("sawmill.startup-timeout", STARTUP_TIMEOUT.toSeconds() + "s");
			properties.put("spring.kafka.bootstrap-servers", "127.0.0.1:" + closedPort);
			properties.put("spring.data.redis.host", redis.host());
			properties.put("spring.data.redis.port", redis.port());
			properties.put("server.port", 0);

			try (SawmillProcess sawmill = SawmillProcess.start(properties, log)) {
				OptionalInt exit = sawmill.awaitExitCode(STARTUP_TIMEOUT.plusSeconds(30));

				assertThat(exit).as("exit code; the log ends with:%n%s", sawmill.logTail()).isPresent();
				assertThat(exit.getAsInt()).isNotZero();
			}
		}

		String output = Files.readString(log);
		List<String> events = output.lines().filter(line -> line.matches("^\\d{4}-\\d{2}-\\d{2}T.*")).toList();
		assertThat(events).as("log events").hasSizeLessThan(200);
		assertThat(Files.size(log)).as("log bytes").isLessThan(256 * 1024);
		assertThat(output).doesNotContain("Rebootstrapping");
		assertThat(occurrences(output, "APPLICATION FAILED TO START")).isOne();
		assertThat(output).contains("Kafka at 127.0.0.1:" + closedPort + " did not answer within PT10S")
			.contains("Check spring.kafka.bootstrap-servers");
	}

	private static int occurrences(String text, String part) {
		int count = 0;
		for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
			count++;
		}
		return count;
	}

}
