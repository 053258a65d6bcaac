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
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class UnknownPropertiesCheckTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withInitializer(new UnknownPropertiesCheck());

	@Test
	void shouldFailStartupOnMisspeltPropertyNamingTheNearestValidOne() {
		runner.withPropertyValues("sawmill.bach-size=500").run(context -> {
			FailureAnalysis analysis = analysis(context);
			assertThat(analysis.getDescription())
				.startsWith("Unknown property sawmill.bach-size; did you mean sawmill.batch-size?")
				.contains("from property source");
			assertThat(analysis.getAction()).startsWith("Correct or remove the property.");
		});
	}

	@Test
	void shouldSuggestNestedNamesAndListEveryUnknownProperty() {
		runner
			.withPropertyValues("sawmill.retry.max-atempts=3", "sawmill.dead-leter.enabled=false",
					"sawmill.metrics.summary.intervall=10s")
			.run(context -> assertThat(analysis(context).getDescription()).contains(
					"Unknown property sawmill.dead-leter.enabled; did you mean sawmill.dead-letter.enabled?",
					"Unknown property sawmill.metrics.summary.intervall; did you mean sawmill.metrics.summary.interval?",
					"Unknown property sawmill.retry.max-atempts; did you mean sawmill.retry.max-attempts?"));
	}

	@Test
	void shouldSaySoWhenNoValidNameIsClose() {
		runner.withPropertyValues("sawmill.frobnicator.level=7")
			.run(context -> assertThat(analysis(context).getDescription())
				.startsWith("Unknown property sawmill.frobnicator.level; no sawmill property has a similar name."));
	}

	@Test
	void shouldCatchAMisspeltEnabledFlagEvenThoughItWouldSwitchSawmillOff() {
		runner.withPropertyValues("sawmill.enabeld=false")
			.run(context -> assertThat(analysis(context).getDescription())
				.startsWith("Unknown property sawmill.enabeld; did you mean sawmill.enabled?"));
	}

	@Test
	void shouldAcceptEveryRelaxedFormBootBinds() {
		runner
			.withPropertyValues("sawmill.batchSize=500", "sawmill.BATCH-SIZE=500", "sawmill.batch_size=500",
					"sawmill.topics[0]=orders", "sawmill.topics[1]=payments", "sawmill.group-id=g",
					"sawmill.mapping.key-template=user:{id}", "sawmill.mapping.fields=a,b", "sawmill.mapping.ttl=1h",
					"sawmill.pipeline.wait-for-replicas=1", "sawmill.dead-letter.topic-suffix=.dlt",
					"sawmill.circuit-breaker.enabled=true", "sawmill.metrics.slo-buckets[0]=200ms",
					"sawmill.metrics.summary.enabled=false", "sawmill.enabled=true")
			.run(context -> assertThat(context).hasNotFailed());
	}

	@Test
	void shouldReadEnvironmentVariablesInBothOfBootsForms() {
		withEnvironmentVariables(Map.of("SAWMILL_BATCH_SIZE", "500", "SAWMILL_BATCHSIZE", "500", "SAWMILL_TOPICS_0_",
				"orders", "SAWMILL_DEAD_LETTER_TOPIC_SUFFIX", ".dlt", "SAWMILL_METRICS_SUMMARY_ENABLED", "false",
				"SAWMILL_PIPELINE_MAX_COMMANDS_PER_CHUNK", "100", "PATH", "/usr/bin"))
			.run(context -> assertThat(context).hasNotFailed());
	}

	@Test
	void shouldFailStartupOnAMisspeltEnvironmentVariableNamingTheNearestValidProperty() {
		withEnvironmentVariables(Map.of("SAWMILL_BACH_SIZE", "500"))
			.run(context -> assertThat(analysis(context).getDescription())
				.contains("Unknown property sawmill.bach.size; did you mean sawmill.batch-size?")
				.contains("SAWMILL_BACH_SIZE"));
	}

	@Test
	void shouldStartBesideTheVariablesKubernetesSetsForServicesNamedSawmill() {
		withEnvironmentVariables(Map.of("SAWMILL_SERVICE_HOST", "10.0.0.7", "SAWMILL_SERVICE_PORT", "8080",
				"SAWMILL_SERVICE_PORT_HTTP", "8080", "SAWMILL_PORT", "tcp://10.0.0.7:8080",
				"SAWMILL_PORT_8080_TCP_PROTO", "tcp", "SAWMILL_PORT_8080_TCP_ADDR", "10.0.0.7",
				"SAWMILL_ORDERS_SERVICE_HOST", "10.0.0.8", "SAWMILL_ORDERS_PORT_9090_TCP", "tcp://10.0.0.8:9090"))
			.run(context -> assertThat(context).hasNotFailed());
	}

	@Test
	void shouldAcceptThePropertiesOfAnyOtherSawmillConfigurationPropertiesBean() {
		runner.withUserConfiguration(ExtraPropertiesConfiguration.class)
			.withPropertyValues("sawmill.extra.window=5s", "sawmill.extra.labels.team=core")
			.run(context -> assertThat(context).hasNotFailed());
		runner.withUserConfiguration(ExtraPropertiesConfiguration.class)
			.withPropertyValues("sawmill.extra.windw=5s")
			.run(context -> assertThat(analysis(context).getDescription())
				.startsWith("Unknown property sawmill.extra.windw; did you mean sawmill.extra.window?"));
	}

	@Test
	void shouldCheckEveryApplicationThatSpringApplicationStarts() {
		SpringApplication application = new SpringApplication(ExtraPropertiesConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setDefaultProperties(Map.of("sawmill.bach-size", "500"));
		assertThatExceptionOfType(SawmillConfigurationException.class).isThrownBy(application::run)
			.satisfies(ex -> assertThat(new SawmillFailureAnalyzer().analyze(ex).getDescription())
				.startsWith("Unknown property sawmill.bach-size; did you mean sawmill.batch-size?"));
	}

	@Test
	void shouldIgnorePropertiesOutsideSawmill() {
		runner.withPropertyValues("spring.kafka.bootstrap-servers=localhost:1", "sawmillx.anything=1")
			.run(context -> assertThat(context).hasNotFailed());
	}

	/**
	 * A source named as Boot's environment variables are, so Boot reads it with its
	 * environment-variable rules.
	 */
	private ApplicationContextRunner withEnvironmentVariables(Map<String, Object> variables) {
		return runner.withInitializer(context -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new SystemEnvironmentPropertySource("test-systemEnvironment", variables)));
	}

	private static FailureAnalysis analysis(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		assertThat(context.getStartupFailure()).isInstanceOf(SawmillConfigurationException.class);
		FailureAnalysis analysis = new SawmillFailureAnalyzer().analyze(context.getStartupFailure());
		assertThat(analysis).isNotNull();
		return analysis;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(ExtraProperties.class)
	static class ExtraPropertiesConfiguration {

	}

	@ConfigurationProperties("sawmill.extra")
	record ExtraProperties(java.time.Duration window, Map<String, String> labels) {
	}

}
