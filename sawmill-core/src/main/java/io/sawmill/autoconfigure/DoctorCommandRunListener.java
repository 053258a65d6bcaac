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

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;
import org.springframework.boot.bootstrap.ConfigurableBootstrapContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Ends a run with {@code sawmill.doctor.command=true} once the application is ready: the
 * report is printed on standard output and the JVM exits with its code, or with
 * {@link SawmillDoctorCommand#EXIT_NOT_RUN} when the application failed to start. Does
 * nothing otherwise.
 */
final class DoctorCommandRunListener implements SpringApplicationRunListener {

	private volatile boolean command;

	DoctorCommandRunListener(SpringApplication application, String[] args) {
	}

	@Override
	public void environmentPrepared(ConfigurableBootstrapContext bootstrapContext,
			ConfigurableEnvironment environment) {
		command = environment.getProperty(SawmillDoctorCommand.PROPERTY, Boolean.class, false);
	}

	@Override
	public void ready(ConfigurableApplicationContext context, @Nullable Duration timeTaken) {
		if (!command) {
			return;
		}
		int exit;
		try {
			exit = SawmillDoctorCommand.examine(context, System.out);
		}
		catch (RuntimeException ex) {
			SawmillDoctorCommand.notRun(ex, System.out);
			exit = SawmillDoctorCommand.EXIT_NOT_RUN;
		}
		int code = exit;
		System.exit(SpringApplication.exit(context, () -> code));
	}

	@Override
	public void failed(@Nullable ConfigurableApplicationContext context, Throwable exception) {
		if (command) {
			SawmillDoctorCommand.notRun(exception, System.out);
			System.exit(SawmillDoctorCommand.EXIT_NOT_RUN);
		}
	}

}
