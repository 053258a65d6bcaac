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

import java.util.List;

import org.junit.jupiter.api.Test;

import io.sawmill.bench.e2e.workload.Route;

class RouteComparisonTests {

	@Test
	void shouldDrainTheVariantsInReverseOrderEverySecondRound() {
		List<Route> routes = List.of(Route.MAPPING, Route.HASH, Route.STRING);

		assertThat(RouteComparison.order(routes, 1)).containsExactly(Route.MAPPING, Route.HASH, Route.STRING);
		assertThat(RouteComparison.order(routes, 2)).containsExactly(Route.STRING, Route.HASH, Route.MAPPING);
		assertThat(RouteComparison.order(routes, 3)).containsExactly(Route.MAPPING, Route.HASH, Route.STRING);
		assertThat(routes).containsExactly(Route.MAPPING, Route.HASH, Route.STRING);
	}

}
