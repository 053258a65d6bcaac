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
