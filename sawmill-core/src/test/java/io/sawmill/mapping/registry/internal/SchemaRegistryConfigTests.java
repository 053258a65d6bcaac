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
package io.sawmill.mapping.registry.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class SchemaRegistryConfigTests {

	@Test
	void shouldDefaultTheTimeoutAndCacheAndDropATrailingSlash() {
		SchemaRegistryConfig config = SchemaRegistryConfig.custom("http://registry:8080/apis/ccompat/v7/").build();
		assertThat(config.url()).hasToString("http://registry:8080/apis/ccompat/v7");
		assertThat(config.requestTimeout()).isEqualTo(SchemaRegistryConfig.DEFAULT_REQUEST_TIMEOUT);
		assertThat(config.cacheSize()).isEqualTo(SchemaRegistryConfig.DEFAULT_CACHE_SIZE);
		assertThat(config.username()).isNull();
	}

	@Test
	void shouldRefuseAUrlThatIsNotHttpOrCarriesCredentials() {
		assertThatIllegalArgumentException().isThrownBy(() -> SchemaRegistryConfig.custom("registry:8081"))
			.withMessage("url must be an http or https URL without user info (set username and password instead), "
					+ "e.g. 'http://registry:8081', but was 'registry:8081'");
		assertThatIllegalArgumentException().isThrownBy(() -> SchemaRegistryConfig.custom("http://u:p@registry:8081"))
			.withMessageStartingWith("url must be an http or https URL without user info");
		assertThatIllegalArgumentException().isThrownBy(() -> SchemaRegistryConfig.custom(null))
			.withMessageEndingWith("but was 'null'");
	}

	@Test
	void shouldNeedUsernameAndPasswordTogether() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SchemaRegistryConfig.custom("https://registry").basicAuth("sawmill", null))
			.withMessage("username and password must be set together, but only the username is set");
		assertThat(SchemaRegistryConfig.custom("https://registry").basicAuth("sawmill", "secret").build().username())
			.isEqualTo("sawmill");
	}

	@Test
	void shouldRefuseANonPositiveTimeoutAndAnEmptyCache() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SchemaRegistryConfig.custom("http://r").requestTimeout(Duration.ZERO))
			.withMessage("request-timeout must be positive, but was PT0S");
		assertThatIllegalArgumentException().isThrownBy(() -> SchemaRegistryConfig.custom("http://r").cacheSize(0))
			.withMessage("cache-size must be at least 1, but was 0");
	}

}
