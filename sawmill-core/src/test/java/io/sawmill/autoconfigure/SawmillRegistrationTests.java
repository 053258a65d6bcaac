package io.sawmill.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;

/** What an application gets just by having sawmill-core on its classpath. */
class SawmillRegistrationTests {

	@Test
	void shouldRegisterTheAutoConfiguration() {
		assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()))
			.contains(SawmillAutoConfiguration.class.getName());
	}

	@Test
	void shouldRegisterTheFailureAnalyzer() {
		// Other analyzers on the classpath need a bean factory to be created; only ours matters here.
		assertThat(SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, ArgumentResolver.none(), (type, name, failure) -> {
			}))
			.hasAtLeastOneElementOfType(SawmillFailureAnalyzer.class);
	}
}
