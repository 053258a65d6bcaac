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
package io.sawmill.bench.e2e.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.bench.e2e.workload.Route;

class SawmillRunnerTests {

	private final Endpoint redis = new Endpoint(0, null, "127.0.0.1", 7001, "127.0.0.1", List.of(7001), false);

	@Test
	void shouldAddAVariantsPropertiesToTheCellsOwn() {
		String[] args = SawmillRunner.arguments("127.0.0.1:9092", "backlog", "g1", 1_000, redis, Duration.ofHours(1),
				Map.of("sawmill.coalesce-writes", "true"));

		assertThat(args).contains("--sawmill.topics=backlog", "--sawmill.group-id=g1", "--sawmill.batch-size=1000",
				"--sawmill.mapping.ttl=3600s", "--spring.data.redis.port=7001", "--sawmill.coalesce-writes=true");
	}

	@Test
	void shouldLetAVariantReplaceACellPropertyRatherThanRepeatIt() {
		// Boot joins a name given twice on the command line with a comma ("1000,500"),
		// which would not bind
		String[] args = SawmillRunner.arguments("127.0.0.1:9092", "backlog", "g1", 1_000, redis, Duration.ofHours(1),
				Map.of("sawmill.batch-size", "500"));

		assertThat(args).filteredOn(arg -> arg.startsWith("--sawmill.batch-size="))
			.containsExactly("--sawmill.batch-size=500");
	}

	@Test
	void shouldReplaceTheCellsTopicAndMappingWithARoute() {
		// Sawmill refuses sawmill.topics and sawmill.mapping.key-template next to
		// sawmill.routes
		String[] args = SawmillRunner.arguments("127.0.0.1:9092", "routes", "g1", 1_000, redis, Duration.ofHours(1),
				Route.STRING.properties("routes", Duration.ofHours(1)));

		assertThat(args).noneMatch(arg -> arg.startsWith("--sawmill.topics=") || arg.startsWith("--sawmill.mapping."))
			.contains("--sawmill.group-id=g1", "--sawmill.batch-size=1000", "--sawmill.routes[0].topics=routes",
					"--sawmill.routes[0].type=STRING", "--sawmill.routes[0].key-template=rec:{id}",
					"--sawmill.routes[0].ttl=3600s");
	}

}
