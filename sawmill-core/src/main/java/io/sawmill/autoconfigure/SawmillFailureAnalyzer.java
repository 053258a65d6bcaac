package io.sawmill.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a {@link SawmillConfigurationException} into Boot's "APPLICATION FAILED TO START" report. */
class SawmillFailureAnalyzer extends AbstractFailureAnalyzer<SawmillConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, SawmillConfigurationException cause) {
		return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
	}
}
