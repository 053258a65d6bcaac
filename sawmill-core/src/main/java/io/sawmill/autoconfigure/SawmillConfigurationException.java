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

/**
 * Sawmill cannot start as configured, or a server it needs cannot be reached. Spring Boot
 * prints the {@link #getMessage() problem} and the {@link #action() action} instead of a
 * stack trace.
 */
public class SawmillConfigurationException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String action;

	public SawmillConfigurationException(String problem, String action) {
		super(problem);
		this.action = action;
	}

	public SawmillConfigurationException(String problem, String action, Throwable cause) {
		super(problem, cause);
		this.action = action;
	}

	/** What to change so that start-up succeeds. */
	public String action() {
		return action;
	}

}
