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
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.sawmill.mapping.KeyEncoding;

/**
 * {@code sawmill.mapping.*} onto {@link io.sawmill.mapping.json.JsonHashMapperConfig},
 * and what start-up says about it.
 */
@ExtendWith(OutputCaptureExtension.class)
class MappingPropertiesTests {

	private static SawmillProperties properties(String keyTemplate) {
		SawmillProperties properties = new SawmillProperties();
		properties.setTopics(List.of("orders"));
		properties.getMapping().setKeyTemplate(keyTemplate);
		return properties;
	}

	@Test
	void shouldEncodeKafkaKeysAsUtf8UnlessToldOtherwise() {
		SawmillProperties properties = properties("{@key}");
		assertThat(MappingConfigAdapter.mapping(properties).keyEncoding()).isEqualTo(KeyEncoding.UTF8);

		properties.getMapping().setKeyEncoding(KeyEncoding.HEX);
		assertThat(MappingConfigAdapter.mapping(properties).keyEncoding()).isEqualTo(KeyEncoding.HEX);
	}

	@Test
	void shouldWarnThatATemplateWithoutTheKafkaKeyCanBreakOrderingAndSayWhatToDo(CapturedOutput output) {
		MappingConfigAdapter.mapping(properties("user:{userId}"));

		assertThat(output.getOut()).contains("WARN")
			.contains("sawmill.mapping.key-template 'user:{userId}' does not use {@key}")
			.contains("an older version can overwrite a newer one")
			.contains("Use {@key} in the template, or have producers key the topic by the field(s) the template reads");
	}

	@Test
	void shouldNotWarnWhenTheTemplateUsesTheKafkaKey(CapturedOutput output) {
		MappingConfigAdapter.mapping(properties("{{user}}:{@key}:{region}"));

		assertThat(output.getOut()).doesNotContain("does not use {@key}");
	}

	@Test
	void shouldFailStartUpNamingTheTemplateAndThePositionOfAnUnescapedBrace() {
		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> MappingConfigAdapter.mapping(properties("{user}}:{@key}")))
			.withMessage("Invalid sawmill.mapping.*: keyTemplate '{user}}:{@key}' is invalid: '}' at position 6 has no"
					+ " matching '{' (write '}}' for a literal '}')");
	}

	@Test
	void shouldVersionGuardTheMappingWithARetentionOfAnHourUnlessToldOtherwise() {
		SawmillProperties properties = properties("{@key}");
		assertThat(MappingConfigAdapter.mapping(properties).version()).isEmpty();

		properties.getMapping().setVersion("field:updatedAt");
		assertThat(MappingConfigAdapter.mapping(properties).version()).contains("field:updatedAt");
		assertThat(MappingConfigAdapter.mapping(properties).tombstoneRetention()).isEqualTo(Duration.ofHours(1));
	}

	@Test
	void shouldNotWarnAboutOrderingWhenWritesAreVersionGuarded(CapturedOutput output) {
		SawmillProperties properties = properties("user:{userId}");
		properties.getMapping().setVersion("timestamp");

		MappingConfigAdapter.mapping(properties);

		assertThat(output.getOut()).doesNotContain("does not use {@key}");
	}

	@Test
	void shouldFailStartUpNamingABadVersionSource() {
		SawmillProperties properties = properties("{@key}");
		properties.getMapping().setVersion("updatedAt");

		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> MappingConfigAdapter.mapping(properties))
			.withMessage("Invalid sawmill.mapping.*: version must be 'timestamp' or 'field:<json field>' (e.g. "
					+ "'field:updatedAt'), but was 'updatedAt'");
	}

	@Test
	void shouldFailStartUpNamingANegativeTombstoneRetention() {
		SawmillProperties properties = properties("{@key}");
		properties.getMapping().setVersion("timestamp");
		properties.getMapping().setTombstoneRetention(Duration.ofSeconds(-1));

		assertThatExceptionOfType(SawmillConfigurationException.class)
			.isThrownBy(() -> MappingConfigAdapter.mapping(properties))
			.withMessageContaining("tombstoneRetention must be zero (none) or positive, but was PT-1S");
	}

}
