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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * values.schema.json rejects wrong types, out-of-range numbers and unknown keys before
 * anything renders.
 */
class ChartSchemaTest {

	@ParameterizedTest(name = "{0}={1} is rejected")
	@CsvSource({ "sawmill.concurrency, many, /sawmill/concurrency", "sawmill.concurrency, 0, /sawmill/concurrency",
			"sawmill.batchSize, 100001, /sawmill/batchSize",
			"sawmill.shutdownTimeout, thirty, /sawmill/shutdownTimeout", "sawmill.concurency, 4, concurency",
			"replicas, 3, replicas", "redis.password, hunter2, password",
			"topologySpread.zones.whenUnsatisfiable, Sometimes, /topologySpread/zones/whenUnsatisfiable",
			"kafka.groupProtocol, streams, /kafka/groupProtocol", "kafka.autoOffsetReset, none, /kafka/autoOffsetReset",
			"kafka.sessionTimeoutMs, 3000, /kafka/sessionTimeoutMs",
			"rackAwareness.source, guess, /rackAwareness/source", })
	void shouldRejectABadValue(String key, String value, String named) {
		assertThatThrownBy(() -> render("defaults", Map.of(key, value))).hasMessageContaining("schema")
			.hasMessageContaining(named);
	}

}
