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

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.lettuce.core.RedisURI;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;

/**
 * Graceful shutdown: the Sawmill JVM gets SIGTERM (as Kubernetes stops a pod) while it is
 * busy with a backlog, batches in flight. The batch in flight finishes and is committed —
 * never half-committed — and the JVM exits within {@code sawmill.shutdown-timeout}: at
 * exit, every record Redis executed is committed. A second JVM then takes over without
 * writing anything twice.
 */
class SawmillProcessTerminatedIT {

	private static final String SCENARIO = "10-sawmill-process-sigterm";

	private static final String TOPIC = "fault-terminated-app";

	private static final String GROUP = "fault-terminated-app";

	private static final VersionedEvents EVENTS = new VersionedEvents(10_000, 2_500);

	private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, 3).andTopic(TOPIC + ".DLT", 3);

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void shouldFinishAndCommitTheBatchInFlightOnSigtermAndExitWithinTheShutdownTimeout() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, GROUP);
		properties.put("sawmill.concurrency", 2);
		properties.put("sawmill.batch-size", 500);
		properties.put("sawmill.shutdown-timeout", SHUTDOWN_TIMEOUT.toSeconds() + "s");
		properties.put("spring.kafka.consumer.properties[session.timeout.ms]", 6000);
		Path logs = FaultAssertions.target("fault-logs");
		EVENTS.produce(servers.kafka().bootstrapServers(), TOPIC, 0, EVENTS.records());
		SawmillProcess first = null;
		SawmillProcess second = null;
		try (ReplyDelayProxy proxy = ReplyDelayProxy.start(servers.redis().host(), servers.redis().port(),
				Duration.ofMillis(100));
				RedisReadBack readBack = RedisReadBack
					.of(RedisURI.create(servers.redis().host(), servers.redis().port()));
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			properties.put("spring.data.redis.port", proxy.port());
			first = SawmillProcess.start(properties, logs.resolve(SCENARIO + "-first.log"));
			SawmillProcess running = first;
			await("a fifth of the records written").atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(5))
				.failFast("the Sawmill JVM exited", () -> !running.isAlive())
				.until(() -> readBack.hsetCalls() >= EVENTS.records() / 5);

			Duration exit = first.terminate();
			long hsetsAtExit = readBack.hsetCalls();
			long committedAtExit = FaultAssertions.committed(admin, GROUP);
			System.out.printf("FAULT %s: SIGTERM, exited after %d ms with %d HSETs executed and %d offsets committed%n",
					SCENARIO, exit.toMillis(), hsetsAtExit, committedAtExit);
			assertThat(exit).as("exit within sawmill.shutdown-timeout").isLessThan(SHUTDOWN_TIMEOUT);
			assertThat(hsetsAtExit).as("stopped mid-stream").isLessThan(EVENTS.records());
			assertThat(committedAtExit).as("every record written before the exit is committed").isEqualTo(hsetsAtExit);

			second = SawmillProcess.start(properties, logs.resolve(SCENARIO + "-second.log"));
			FaultAssertions.Figures figures = FaultAssertions.assertNothingLost(SCENARIO, admin, GROUP, TOPIC, 3,
					EVENTS, readBack, Duration.ofSeconds(120));
			assertThat(figures.duplicates()).as("nothing written twice after a graceful stop").isZero();
		}
		finally {
			if (first != null) {
				first.close();
			}
			if (second != null) {
				second.close();
			}
		}
	}

}
