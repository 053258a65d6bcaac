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
package io.sawmill.admin.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.listener.internal.RedisCircuit;

class SawmillOperationsTests {

	private final RedisCircuit circuit = RedisCircuit.disabled("test");

	private final SawmillOperations operations = new SawmillOperations(
			new ConcurrentMessageListenerContainer<>(new DefaultKafkaConsumerFactory<>(Map.of()),
					new ContainerProperties("orders", "users")),
			null, List.of("orders", "users"), "group", circuit, null, new SimpleMeterRegistry(), Map.of(), Map.of(),
			100);

	@AfterEach
	void close() {
		operations.close();
	}

	@Test
	void shouldRefuseARangeOverTheMaximumNamingTheMaximumAndTheProperty() {
		assertThatIllegalArgumentException().isThrownBy(() -> operations.redrive("orders.DLT", 0, 0, 101))
			.withMessageContaining("101 records, more than the maximum of 100")
			.withMessageContaining("sawmill.dead-letter.max-redrive-records");
	}

	@Test
	void shouldRefuseAnEmptyOrNegativeRange() {
		assertThatIllegalArgumentException().isThrownBy(() -> operations.redrive("orders.DLT", 0, 5, 5))
			.withMessageContaining("from=5 to=5");
		assertThatIllegalArgumentException().isThrownBy(() -> operations.redrive("orders.DLT", -1, 0, 5))
			.withMessageContaining("partition=-1");
	}

	@Test
	void shouldRefuseToPauseATopicThatIsNotOneOfTheService() {
		assertThatIllegalArgumentException().isThrownBy(() -> operations.pause("payments"))
			.withMessage("topic must be one of [orders, users], but was 'payments'");
	}

	@Test
	void shouldPauseOneTopicOrAllAndResumeOnlyWhatIsNamed() throws Exception {
		assertThat(operations.pause("orders")).containsEntry("operatorPaused", java.util.Set.of("orders"));
		assertThat(operations.pause(null).get("operatorPaused")).asString().isEqualTo("[orders, users]");
		assertThat(operations.resume("users").get("operatorPaused")).asString().isEqualTo("[orders]");
		assertThat(operations.resume(null).get("operatorPaused")).asString().isEqualTo("[]");
	}

	@Test
	void shouldPauseARouteByNameAsItsTopics() throws Exception {
		operations.withRoutes(Map.of("scores", List.of("users")));
		assertThat(operations.pause("scores").get("operatorPaused")).asString().isEqualTo("[users]");
		assertThat(operations.resume("scores").get("operatorPaused")).asString().isEqualTo("[]");
		assertThatIllegalArgumentException().isThrownBy(() -> operations.pause("payments"))
			.withMessage("topic must be one of [orders, users] or a route of [scores], but was 'payments'");
	}

	@Test
	void shouldPauseAPatternRouteByNameAsEveryTopicItMatchesAndAcceptATopicItMatches() throws Exception {
		operations.withPatternRoutes(Map.of("clicks", Pattern.compile("clicks-.*")));
		assertThat(operations.pause("clicks").get("operatorPaused")).asString()
			.isEqualTo("[topics matching clicks-.*]");
		assertThat(operations.pause("clicks-eu").get("operatorPaused")).asString()
			.isEqualTo("[clicks-eu, topics matching clicks-.*]");
		assertThat(operations.resume("clicks").get("operatorPaused")).asString().isEqualTo("[clicks-eu]");
		assertThat(operations.resume(null).get("operatorPaused")).asString().isEqualTo("[]");
		assertThatIllegalArgumentException().isThrownBy(() -> operations.pause("payments"))
			.withMessage("topic must be one of [orders, users] or match one of [clicks-.*] or a route of [clicks], "
					+ "but was 'payments'");
	}

	@Test
	void shouldRefuseAMaximumBelowOne() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SawmillOperations(null, null, List.of("orders"), "group", circuit, null,
					new SimpleMeterRegistry(), Map.of(), Map.of(), 0))
			.withMessage("maxRedriveRecords must be at least 1, but was 0");
	}

}
