package io.sawmill.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

class SawmillFailureAnalyzerTests {

	@Test
	void shouldTurnConfigurationExceptionIntoDescriptionAndAction() {
		SawmillConfigurationException cause = new SawmillConfigurationException("Redis at 10.0.0.1:6379 cannot be used",
				"Check spring.data.redis.host/port.");
		Exception wrapped = new BeanCreationException("sawmillStartupCheck", "Startup failed", cause);

		FailureAnalysis analysis = new SawmillFailureAnalyzer().analyze(wrapped);

		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).isEqualTo("Redis at 10.0.0.1:6379 cannot be used");
		assertThat(analysis.getAction()).isEqualTo("Check spring.data.redis.host/port.");
		assertThat(analysis.getCause()).isSameAs(cause);
	}

	@Test
	void shouldLeaveOtherFailuresToOtherAnalyzers() {
		assertThat(new SawmillFailureAnalyzer().analyze(new IllegalStateException("not ours"))).isNull();
	}
}
