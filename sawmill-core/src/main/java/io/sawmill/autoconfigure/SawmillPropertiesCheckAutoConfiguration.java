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

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Checks the {@code sawmill.*} property names before any bean is created: an unknown name
 * fails start-up with the nearest valid one. Applies whether or not
 * {@code sawmill.enabled} is true, so a misspelt {@code sawmill.enabled} is caught too.
 */
@AutoConfiguration
public final class SawmillPropertiesCheckAutoConfiguration {

	@Bean
	static UnknownPropertiesCheck sawmillUnknownPropertiesCheck() {
		return new UnknownPropertiesCheck();
	}

}
