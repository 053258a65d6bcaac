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
package io.sawmill.it.library;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * The mapper docs/mapping.md shows is {@link LeaderboardMapper}, which compiles and which
 * {@link CustomRecordMapperIT} runs: the page's listing is the class's source after its
 * package line, word for word (tabs as four spaces).
 */
class MapperGuideTests {

	@Test
	void shouldShowTheMapperTheIntegrationTestRunsWordForWord() throws IOException {
		String page = Files.readString(Path.of("..", "docs", "mapping.md"));
		String source = Files
			.readString(Path.of("src", "test", "java", "io", "sawmill", "it", "library", "LeaderboardMapper.java"));

		String listing = source.substring(source.indexOf("import ")).replace("\t", "    ").strip();

		assertThat(page).as("docs/mapping.md shows LeaderboardMapper.java after its package line")
			.contains("```java\n" + listing + "\n```");
	}

}
