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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

class SawmillPropertyNamesTests {

	private final SawmillPropertyNames names = new SawmillPropertyNames().with("sawmill.test", Shapes.class);

	@Test
	void shouldAcceptAnyNameBelowAMapValuedProperty() {
		assertThat(known("sawmill.test.labels.team")).isTrue();
		assertThat(known("sawmill.test.labels[team.name]")).isTrue();
		assertThat(known("sawmill.test.labels")).isTrue();
	}

	@Test
	void shouldAcceptIndicesOfListsAndTheFieldsOfTheirElements() {
		assertThat(known("sawmill.test.routes[0].topic")).isTrue();
		assertThat(known("sawmill.test.routes[3].key-template")).isTrue();
		assertThat(known("sawmill.test.routes[0].topik")).isFalse();
		assertThat(known("sawmill.test.tags[2]")).isTrue();
		assertThat(known("sawmill.test.tags.extra")).isFalse();
	}

	@Test
	void shouldRejectNamesBelowAPlainValue() {
		assertThat(known("sawmill.test.mode")).isTrue();
		assertThat(known("sawmill.test.mode.extra")).isFalse();
	}

	@Test
	void shouldListEveryNameAUserCanSetDashed() {
		assertThat(names.names()).containsExactlyInAnyOrder("sawmill.test.labels", "sawmill.test.mode",
				"sawmill.test.routes[0].key-template", "sawmill.test.routes[0].topic", "sawmill.test.tags");
	}

	@Test
	void shouldMeasureEditDistanceIgnoringDashesAndCase() {
		assertThat(UnknownPropertiesCheck.NearestName.distance("kitten", "sitting")).isEqualTo(3);
		assertThat(UnknownPropertiesCheck.NearestName.of("sawmill.BACH_SIZE",
				List.of("sawmill.batch-size", "sawmill.group-id")))
			.isEqualTo("sawmill.batch-size");
	}

	private boolean known(String name) {
		return names.isKnown(ConfigurationPropertyName.of(name), false);
	}

	enum Mode {

		FAST, SAFE

	}

	public static class Shapes {

		private Map<String, String> labels = new HashMap<>();

		private List<Route> routes = new ArrayList<>();

		private List<String> tags = new ArrayList<>();

		private Mode mode = Mode.SAFE;

		public Map<String, String> getLabels() {
			return labels;
		}

		public List<Route> getRoutes() {
			return routes;
		}

		public List<String> getTags() {
			return tags;
		}

		public Mode getMode() {
			return mode;
		}

	}

	public static class Route {

		private String topic;

		private String keyTemplate;

		public String getTopic() {
			return topic;
		}

		public String getKeyTemplate() {
			return keyTemplate;
		}

	}

}
