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

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import io.sawmill.mapping.registry.internal.SchemaRegistryConfig;
import io.sawmill.mapping.route.HashUpdate;
import io.sawmill.mapping.route.KeyFormat;
import io.sawmill.mapping.route.RedisType;
import io.sawmill.mapping.route.ValueFormat;
import io.sawmill.mapping.route.internal.RouteConfig;
import io.sawmill.mapping.route.internal.Routes;

class RoutePropertiesTests {

	/**
	 * {@code sawmill.*} bound from properties as a YAML file or the command line gives
	 * them.
	 */
	private static SawmillProperties bind(Map<String, String> properties) {
		return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("sawmill",
				SawmillProperties.class);
	}

	private static Map<String, String> twoRoutes() {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("sawmill.routes[0].name", "profiles");
		properties.put("sawmill.routes[0].topics", "profiles,profiles-eu");
		properties.put("sawmill.routes[0].key-template", "profile:{@key}");
		properties.put("sawmill.routes[0].hash-update", "replace");
		properties.put("sawmill.routes[0].ttl", "1h");
		properties.put("sawmill.routes[0].dead-letter-topic", "profiles-dlt");
		properties.put("sawmill.routes[1].name", "scores");
		properties.put("sawmill.routes[1].topics", "scores");
		properties.put("sawmill.routes[1].type", "sorted-set");
		properties.put("sawmill.routes[1].key-template", "board:{@topic}");
		properties.put("sawmill.routes[1].score-field", "points");
		properties.put("sawmill.routes[1].member", "{@key}");
		return properties;
	}

	@Test
	void routesBindFromPropertiesAndAllTheirTopicsAreConsumedByOneGroup() {
		SawmillProperties properties = bind(twoRoutes());

		Routes routes = MappingConfigAdapter.routeMapper(properties);

		assertThat(routes.routes()).extracting(RouteConfig::name).containsExactly("profiles", "scores");
		assertThat(routes.routes().get(0).hashUpdate()).isEqualTo(HashUpdate.REPLACE);
		assertThat(routes.routes().get(1).type()).isEqualTo(RedisType.SORTED_SET);
		assertThat(SawmillConfigAdapter.listener(properties).topics()).containsExactly("profiles", "profiles-eu",
				"scores");
		assertThat(SawmillConfigAdapter.deadLetter(properties).topicFor("profiles-eu")).isEqualTo("profiles-dlt");
		assertThat(SawmillConfigAdapter.deadLetter(properties).topicFor("scores")).isEqualTo("scores.DLT");
	}

	@Test
	void aPatternRouteMakesTheGroupSubscribeWithOnePatternCoveringTheNamedTopicsToo() {
		Map<String, String> properties = twoRoutes();
		properties.remove("sawmill.routes[1].topics");
		properties.put("sawmill.routes[1].topic-pattern", "scores-.*");
		properties.put("sawmill.routes[1].dead-letter-topic", "dlt-scores");
		SawmillProperties bound = bind(properties);

		Pattern subscription = SawmillConfigAdapter.listener(bound).topicPattern();

		assertThat(MappingConfigAdapter.routeMapper(bound).routes().get(1).topicPattern().pattern())
			.isEqualTo("scores-.*");
		assertThat(SawmillConfigAdapter.listener(bound).topics()).containsExactly("profiles", "profiles-eu");
		assertThat(List.of("profiles", "profiles-eu", "scores-a", "scores-b"))
			.allMatch(t -> subscription.matcher(t).matches());
		assertThat(List.of("profiles.x", "scores", "profiles-dlt", "dlt-scores"))
			.noneMatch(t -> subscription.matcher(t).matches());
		assertThat(SawmillConfigAdapter.deadLetter(bound).topicFor("scores-a")).isEqualTo("dlt-scores");
		assertThat(SawmillConfigAdapter.deadLetter(bound).topicFor("profiles")).isEqualTo("profiles-dlt");
	}

	@Test
	void aPatternRouteNeedsADeadLetterTopicThatNoPatternMatches() {
		Map<String, String> properties = twoRoutes();
		properties.remove("sawmill.routes[1].topics");
		properties.put("sawmill.routes[1].topic-pattern", "scores.*");
		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> SawmillConfigAdapter.deadLetter(bind(properties)))
			.withMessageContaining("sawmill.routes[1] has topic-pattern 'scores.*' but no dead-letter-topic");

		properties.put("sawmill.routes[1].dead-letter-topic", "scores.DLT");
		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> SawmillConfigAdapter.deadLetter(bind(properties)))
			.withMessageContaining("Dead-letter topic 'scores.DLT' matches topic-pattern 'scores.*'");

		properties.put("sawmill.routes[1].topic-pattern", "profiles.*");
		properties.put("sawmill.routes[1].dead-letter-topic", "dlt-scores");
		properties.remove("sawmill.routes[0].dead-letter-topic");
		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> SawmillConfigAdapter.deadLetter(bind(properties)))
			.withMessageContaining("Dead-letter topic 'profiles.DLT' matches topic-pattern 'profiles.*'");
	}

	@Test
	void anInvalidRouteFailsStartUpNamingItsIndexItsNameAndTheValue() {
		Map<String, String> properties = twoRoutes();
		properties.remove("sawmill.routes[1].score-field");

		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> MappingConfigAdapter.routeMapper(bind(properties)))
			.withMessage("Invalid sawmill.routes[1]: route 'scores': score-field must be set for type SORTED_SET, "
					+ "e.g. 'score', but was null");
	}

	@Test
	void aRegistryRouteBindsItsSchemaRegistryAndKeyFormat() {
		Map<String, String> properties = twoRoutes();
		properties.put("sawmill.routes[0].value-format", "protobuf");
		properties.put("sawmill.routes[0].key-format", "avro");
		properties.put("sawmill.routes[0].schema-registry.url", "http://registry:8080/apis/ccompat/v7");
		properties.put("sawmill.routes[0].schema-registry.username", "sawmill");
		properties.put("sawmill.routes[0].schema-registry.password", "secret");
		properties.put("sawmill.routes[0].schema-registry.request-timeout", "2s");

		RouteConfig route = MappingConfigAdapter.routeMapper(bind(properties)).routes().get(0);

		assertThat(route.valueFormat()).isEqualTo(ValueFormat.PROTOBUF);
		assertThat(route.keyFormat()).isEqualTo(KeyFormat.AVRO);
		assertThat(route.schemaRegistry().url()).hasToString("http://registry:8080/apis/ccompat/v7");
		assertThat(route.schemaRegistry().username()).isEqualTo("sawmill");
		assertThat(route.schemaRegistry().requestTimeout()).isEqualTo(Duration.ofSeconds(2));
		assertThat(route.schemaRegistry().cacheSize()).isEqualTo(SchemaRegistryConfig.DEFAULT_CACHE_SIZE);
	}

	@Test
	void aBadSchemaRegistryFailsStartUpNamingTheProperty() {
		Map<String, String> badUrl = twoRoutes();
		badUrl.put("sawmill.routes[0].value-format", "avro");
		badUrl.put("sawmill.routes[0].schema-registry.url", "registry:8081");
		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> MappingConfigAdapter.routeMapper(bind(badUrl)))
			.withMessageStartingWith("Invalid sawmill.routes[0]: schema-registry.url must be an http or https URL");

		Map<String, String> noUrl = twoRoutes();
		noUrl.put("sawmill.routes[0].schema-registry.username", "sawmill");
		noUrl.put("sawmill.routes[0].schema-registry.password", "secret");
		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> MappingConfigAdapter.routeMapper(bind(noUrl)))
			.withMessageStartingWith("Invalid sawmill.routes[0]: schema-registry.username and password are set, "
					+ "but not schema-registry.url");
	}

	@Test
	void routesCannotBeVersionGuarded() {
		Map<String, String> withVersion = twoRoutes();
		withVersion.put("sawmill.mapping.version", "timestamp");
		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> MappingConfigAdapter.routeMapper(bind(withVersion)))
			.withMessage("sawmill.mapping.version 'timestamp' is set together with sawmill.routes");
	}

	@Test
	void routesCannotBeCombinedWithTheSingleMappingOrTopLevelTopics() {
		Map<String, String> withMapping = twoRoutes();
		withMapping.put("sawmill.mapping.key-template", "{@key}");
		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> MappingConfigAdapter.routeMapper(bind(withMapping)))
			.withMessage("sawmill.routes and sawmill.mapping.key-template are both set");

		Map<String, String> withTopics = twoRoutes();
		withTopics.put("sawmill.topics", "users");
		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> MappingConfigAdapter.routeMapper(bind(withTopics)))
			.withMessage("sawmill.routes and sawmill.topics [users] are both set");
	}

}
