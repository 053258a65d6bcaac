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
package io.sawmill.bench.e2e.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RouteTests {

	private static final Duration TTL = Duration.ofHours(1);

	@Test
	void shouldLeaveTheMappingPathToTheCellsOwnProperties() {
		assertThat(Route.MAPPING.properties("routes", TTL)).isEmpty();
		assertThat(Route.MAPPING.builtIn()).isTrue();
		assertThat(Route.HASH.builtIn()).isFalse();
	}

	@Test
	void shouldConfigureTheHashRouteAsTheMappingPathWritesItsHashes() {
		assertThat(Route.HASH.properties("routes", TTL)).containsExactly(Map.entry("sawmill.routes[0].name", "hash"),
				Map.entry("sawmill.routes[0].topics", "routes"), Map.entry("sawmill.routes[0].type", "HASH"),
				Map.entry("sawmill.routes[0].key-template", "rec:{id}"), Map.entry("sawmill.routes[0].ttl", "3600s"));
		assertThat(Route.HASH_REPLACE.properties("routes", TTL))
			.containsEntry("sawmill.routes[0].hash-update", "REPLACE")
			.containsEntry("sawmill.routes[0].type", "HASH");
	}

	@Test
	void shouldGiveEachCollectionTypeItsMemberScoreAndCap() {
		assertThat(Route.SORTED_SET.properties("routes", TTL)).containsEntry("sawmill.routes[0].type", "SORTED_SET")
			.containsEntry("sawmill.routes[0].key-template", "board:{@topic}")
			.containsEntry("sawmill.routes[0].member", "{@key}")
			.containsEntry("sawmill.routes[0].score-field", "version");
		assertThat(Route.SET.properties("routes", TTL)).containsEntry("sawmill.routes[0].member", "{@key}");
		assertThat(Route.LIST.properties("routes", TTL)).containsEntry("sawmill.routes[0].max-length", "2");
		assertThat(Route.STREAM.properties("routes", TTL)).containsEntry("sawmill.routes[0].max-length", "10000")
			.containsEntry("sawmill.routes[0].key-template", "events:{@topic}");
	}

	@Test
	void shouldNotSetATtlOnTheDeleteRouteWhichRefusesOne() {
		assertThat(Route.DELETE.properties("routes", TTL)).doesNotContainKey("sawmill.routes[0].ttl")
			.containsEntry("sawmill.routes[0].type", "DELETE");
	}

	@Test
	void shouldReadItsLabelInAnyCaseWithDashesOrUnderscores() {
		assertThat(Route.parse("sorted-set")).isEqualTo(Route.SORTED_SET);
		assertThat(Route.parse(" SORTED_SET ")).isEqualTo(Route.SORTED_SET);
		assertThat(Route.HASH_REPLACE.label()).isEqualTo("hash-replace");
	}

}
