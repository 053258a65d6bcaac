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
package io.sawmill.it.helm;

import static io.sawmill.it.helm.SawmillChart.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.support.SpringApplicationJsonEnvironmentPostProcessor;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import io.sawmill.autoconfigure.SawmillProperties;
import io.sawmill.mapping.route.HashUpdate;
import io.sawmill.mapping.route.RedisType;

/**
 * sawmill.routes in the chart's values reach the app as the routes it binds, and the
 * schema checks them.
 */
class ChartRoutesTest {

	@Test
	void routesReachTheAppInSpringApplicationJsonInsteadOfTopicsAndMapping() {
		SawmillChart.Manifests manifests = render("routes");

		assertThat(manifests.env()).doesNotContainKeys("SAWMILL_TOPICS", "SAWMILL_MAPPING_KEY_TEMPLATE");
		SawmillProperties bound = bindAsTheAppDoes(manifests.envValue("SPRING_APPLICATION_JSON"));
		assertThat(bound.getRoutes()).extracting(SawmillProperties.Route::getName)
			.containsExactly("profiles", "scores", "clicks");
		SawmillProperties.Route profiles = bound.getRoutes().get(0);
		assertThat(profiles.getHashUpdate()).isEqualTo(HashUpdate.REPLACE);
		assertThat(profiles.getDeadLetterTopic()).isEqualTo("profiles-dlt");
		SawmillProperties.Route scores = bound.getRoutes().get(1);
		assertThat(scores.getType()).isEqualTo(RedisType.SORTED_SET);
		assertThat(scores.getTopics()).containsExactly("scores-eu", "scores-us");
		assertThat(scores.getMember()).isEqualTo("{@key}");
		assertThat(bound.getRoutes().get(2).getMaxLength()).isEqualTo(10_000);
		assertThat(bound.getRoutes().get(2).getFields()).containsExactly("page", "at");
		// extraProperties still apply
		assertThat(bound.getPipeline().getTimeout()).hasSeconds(5);
		assertThat(SawmillChart.installNotes("routes", Map.of()))
			.contains("is consuming profiles, scores-eu, scores-us, clicks as group");
	}

	@Test
	void aRouteWithATopicPatternReachesTheAppAndTheSchemaWantsTopicsOrAPatternNotBoth() {
		Map<String, Object> route = Map.of("sawmill.routes[0].name", "orders", "sawmill.routes[0].topicPattern",
				"orders-.*", "sawmill.routes[0].keyTemplate", "order:{@key}", "sawmill.routes[0].deadLetterTopic",
				"orders-dlt");

		SawmillProperties bound = bindAsTheAppDoes(render("defaults", route).envValue("SPRING_APPLICATION_JSON"));

		assertThat(bound.getRoutes().get(0).getTopicPattern()).isEqualTo("orders-.*");
		assertThat(bound.getRoutes().get(0).getTopics()).isEmpty();
		assertThat(SawmillChart.installNotes("defaults", route))
			.contains("is consuming topics matching orders-.* as group");
		Map<String, Object> both = new java.util.HashMap<>(route);
		both.put("sawmill.routes[0].topics[0]", "orders");
		assertThatThrownBy(() -> render("defaults", both)).hasMessageContaining("schema");
		assertThatThrownBy(() -> render("defaults",
				Map.of("sawmill.routes[0].name", "o", "sawmill.routes[0].keyTemplate", "{@key}")))
			.hasMessageContaining("schema");
	}

	@Test
	void aSchemaRegistryRouteReachesTheAppAndTheSchemaWantsItsRegistry() {
		Map<String, Object> route = Map.of("sawmill.routes[0].name", "orders", "sawmill.routes[0].topics[0]", "orders",
				"sawmill.routes[0].keyTemplate", "order:{@key}", "sawmill.routes[0].valueFormat", "PROTOBUF",
				"sawmill.routes[0].keyFormat", "AVRO", "sawmill.routes[0].schemaRegistry.url",
				"http://registry:8080/apis/ccompat/v7", "sawmill.routes[0].schemaRegistry.cacheSize", "50");

		SawmillProperties.Route bound = bindAsTheAppDoes(render("defaults", route).envValue("SPRING_APPLICATION_JSON"))
			.getRoutes()
			.get(0);

		assertThat(bound.getValueFormat()).hasToString("PROTOBUF");
		assertThat(bound.getKeyFormat()).hasToString("AVRO");
		assertThat(bound.getSchemaRegistry().getUrl()).isEqualTo("http://registry:8080/apis/ccompat/v7");
		assertThat(bound.getSchemaRegistry().getCacheSize()).isEqualTo(50);
		Map<String, Object> withoutRegistry = new java.util.HashMap<>(route);
		withoutRegistry.remove("sawmill.routes[0].schemaRegistry.url");
		withoutRegistry.remove("sawmill.routes[0].schemaRegistry.cacheSize");
		assertThatThrownBy(() -> render("defaults", withoutRegistry)).hasMessageContaining("schema")
			.hasMessageContaining("schemaRegistry");
	}

	@Test
	void withoutRoutesTheChartKeepsTopicsAndMapping() {
		SawmillChart.Manifests manifests = render("defaults");

		assertThat(manifests.envValue("SAWMILL_TOPICS")).isEqualTo("events");
		assertThat(manifests.envValue("SAWMILL_MAPPING_KEY_TEMPLATE")).isEqualTo("{@key}");
		assertThat(manifests.env()).doesNotContainKey("SPRING_APPLICATION_JSON");
	}

	@Test
	void theSchemaRejectsASortedSetRouteWithoutItsScoreFieldAndAnUnknownType() {
		assertThatThrownBy(() -> render("defaults",
				Map.of("sawmill.routes[0].name", "s", "sawmill.routes[0].topics[0]", "t",
						"sawmill.routes[0].keyTemplate", "{@key}", "sawmill.routes[0].type", "SORTED_SET",
						"sawmill.routes[0].member", "{@key}")))
			.hasMessageContaining("schema")
			.hasMessageContaining("scoreField");
		assertThatThrownBy(() -> render("defaults",
				Map.of("sawmill.routes[0].name", "s", "sawmill.routes[0].topics[0]", "t",
						"sawmill.routes[0].keyTemplate", "{@key}", "sawmill.routes[0].type", "TREE")))
			.hasMessageContaining("schema")
			.hasMessageContaining("/sawmill/routes/0/type");
	}

	/**
	 * SPRING_APPLICATION_JSON read by Spring Boot's own post-processor, then bound like
	 * sawmill.* at start-up.
	 */
	private static SawmillProperties bindAsTheAppDoes(String json) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("env", Map.of("SPRING_APPLICATION_JSON", json)));
		new SpringApplicationJsonEnvironmentPostProcessor().postProcessEnvironment(environment, null);
		return Binder.get(environment).bindOrCreate("sawmill", SawmillProperties.class);
	}

}
