package io.sawmill.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Checks the {@code sawmill.*} property names before any bean is created: an unknown name fails
 * start-up with the nearest valid one. Applies whether or not {@code sawmill.enabled} is true, so
 * a misspelt {@code sawmill.enabled} is caught too.
 */
@AutoConfiguration
public final class SawmillPropertiesCheckAutoConfiguration {

	@Bean
	static UnknownPropertiesCheck sawmillUnknownPropertiesCheck() {
		return new UnknownPropertiesCheck();
	}
}
