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
package io.sawmill.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sawmill.doctor.internal.Doctor;
import io.sawmill.doctor.internal.DoctorConfig;

/**
 * The doctor's wiring: which properties and environment variables it reads, when it backs
 * off, and its start-up log lines. Creating the beans connects to nothing, so no server
 * is started here; the report against real servers is tested in RedisFindingsTests and
 * src-it's DoctorIT.
 */
class SawmillDoctorAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, DataRedisAutoConfiguration.class,
				SawmillDoctorAutoConfiguration.class))
		.withInitializer(new UnknownPropertiesCheck())
		.withPropertyValues("sawmill.topics=orders,refunds", "sawmill.concurrency=3");

	@Test
	void shouldConfigureTheDoctorFromTheServicesOwnPropertiesAndTheChartsEnvironmentVariables() {
		runner
			.withInitializer(
					context -> context.getEnvironment()
						.getPropertySources()
						.addFirst(new SystemEnvironmentPropertySource(
								StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								Map.of("SAWMILL_DOCTOR_ZONE", "eu-west-1b", "SAWMILL_DOCTOR_REPLICAS", "4"))))
			.withPropertyValues("sawmill.pipeline.wait-for-replicas=1",
					"spring.kafka.consumer.properties.client.rack=eu-west-1a",
					"sawmill.doctor.redis-zone-pattern=redis-(\\w+)\\.")
			.run(context -> {
				assertThat(context).hasSingleBean(Doctor.class)
					.hasSingleBean(DoctorEndpoint.class)
					.hasSingleBean(DoctorStartupLog.class);
				DoctorConfig config = context.getBean(Doctor.class).config();
				assertThat(config.topics()).containsExactly("orders", "refunds");
				assertThat(config.concurrency()).isEqualTo(3);
				assertThat(config.waitForReplicas()).isEqualTo(1);
				assertThat(config.clientRack()).contains("eu-west-1a");
				assertThat(config.zone()).contains("eu-west-1b");
				assertThat(config.replicas()).isEqualTo(OptionalInt.of(4));
				assertThat(config.redisZonePattern())
					.hasValueSatisfying(p -> assertThat(p.pattern()).isEqualTo("redis-(\\w+)\\."));
				assertThat(config.hostRoot()).isEqualTo(Path.of("/"));
			});
	}

	@Test
	void shouldLeaveUnknownWhatTheOperatorHasNotSaid() {
		runner.run(context -> {
			DoctorConfig config = context.getBean(Doctor.class).config();
			assertThat(config.zone()).isEmpty();
			assertThat(config.replicas()).isEmpty();
			assertThat(config.clientRack()).isEmpty();
			assertThat(config.redisZone()).isEmpty();
		});
	}

	@Test
	void shouldFailStartUpNamingAZonePatternWithoutAGroupAndAReplicaCountBelowOne() {
		runner.withPropertyValues("sawmill.doctor.redis-zone-pattern=redis-[a-z]+").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("sawmill.doctor.*")
				.hasMessageContaining("redis-[a-z]+");
		});
		runner.withPropertyValues("sawmill.doctor.replicas=0").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("replicas must be at least 1, but was 0");
		});
	}

	@Test
	void shouldBackOffWhenDisabledWithItsPropertiesStillKnownAndKeepTheEndpointWithoutTheStartupLog() {
		runner.withPropertyValues("sawmill.doctor.enabled=false", "sawmill.doctor.zone=eu-west-1a")
			.run(context -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(Doctor.class)
				.doesNotHaveBean(DoctorEndpoint.class));
		runner.withPropertyValues("sawmill.doctor.zones=eu-west-1a").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure())
				.hasMessageContaining("Unknown property sawmill.doctor.zones; did you mean sawmill.doctor.zone?");
		});
		runner.withPropertyValues("sawmill.doctor.startup-log=false")
			.run(context -> assertThat(context).hasSingleBean(DoctorEndpoint.class)
				.doesNotHaveBean(DoctorStartupLog.class));
	}

	@Test
	void shouldLogOneLinePerFindingThatIsNotOkAndASummary() throws URISyntaxException {
		Path strained = Path.of(getClass().getResource("/io/sawmill/doctor/internal/strained-v2").toURI());
		Doctor doctor = Doctor.builder(DoctorConfig.custom().hostRoot(strained).build()).build();
		Logger logger = (Logger) LoggerFactory.getLogger(Doctor.class);
		ListAppender<ILoggingEvent> appender = new ListAppender<>();
		appender.start();
		logger.addAppender(appender);
		try {
			new DoctorStartupLog(doctor).logReport();
		}
		finally {
			logger.detachAppender(appender);
		}

		List<String> lines = appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
		assertThat(lines).hasSize(6);
		assertThat(lines.get(0))
			.isEqualTo("Sawmill doctor WARN cpu.quota: 0.50 CPUs (cgroup v2 cpu.max 50000 / 100000) "
					+ "-> Raise resources.limits.cpu to at least 1, or remove the CPU limit and keep the request.");
		assertThat(lines.get(1))
			.startsWith("Sawmill doctor FAIL cpu.throttling: 3117 of 20816 periods throttled (15.0%)");
		assertThat(lines.get(5)).startsWith("Sawmill doctor: FAIL (5 findings: 0 OK, 0 UNKNOWN, 4 WARN, 1 FAIL)");
	}

	@Test
	void shouldWaitForTheFirstCommittedBatchAtMostAsLongAsItIsTold() {
		Doctor doctor = Doctor.builder(DoctorConfig.custom().build()).build();
		AtomicInteger asked = new AtomicInteger();
		new DoctorStartupLog(doctor, () -> asked.incrementAndGet() > 0, Duration.ofDays(1)).awaitFirstCommit();
		assertThat(asked).hasValue(1);
		new DoctorStartupLog(doctor, () -> false, Duration.ZERO).awaitFirstCommit();
	}

}
