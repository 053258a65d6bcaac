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
