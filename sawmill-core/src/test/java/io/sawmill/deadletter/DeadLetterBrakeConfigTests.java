package io.sawmill.deadletter;

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
