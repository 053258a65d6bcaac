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
package io.sawmill.deadletter.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class DeadLetterBrakeConfigTests {

	@Test
	void shouldTripAfterHalfOfAPartitionsLastThousandRecordsOrTenThousandAMinuteByDefault() {
		DeadLetterBrakeConfig config = DeadLetterBrakeConfig.ofDefaults();

		assertThat(config.window()).isEqualTo(1_000);
		assertThat(config.maxRatio()).isEqualTo(0.5);
		assertThat(config.deadLettersToTrip()).isEqualTo(500);
		assertThat(config.maxPerMinute()).isEqualTo(10_000);
	}

	@Test
	void shouldTripOnlyWhenTheWholeWindowFailsWithARatioOfOne() {
		assertThat(DeadLetterBrakeConfig.custom().window(200).maxRatio(1).build().deadLettersToTrip()).isEqualTo(200);
		assertThat(DeadLetterBrakeConfig.custom().window(3).maxRatio(0.01).build().deadLettersToTrip()).isEqualTo(1);
	}

	@Test
	void shouldNameTheBadValue() {
		assertThatIllegalArgumentException().isThrownBy(() -> DeadLetterBrakeConfig.custom().maxRatio(0))
			.withMessage("maxRatio must be greater than 0 and at most 1, but was 0.0");
		assertThatIllegalArgumentException().isThrownBy(() -> DeadLetterBrakeConfig.custom().maxRatio(1.5))
			.withMessage("maxRatio must be greater than 0 and at most 1, but was 1.5");
		assertThatIllegalArgumentException().isThrownBy(() -> DeadLetterBrakeConfig.custom().window(0))
			.withMessage("window must be between 1 and 1000000 records, but was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> DeadLetterBrakeConfig.custom().maxPerMinute(-1))
			.withMessage("maxPerMinute must be 0 (no limit) or more, but was -1");
	}

}
