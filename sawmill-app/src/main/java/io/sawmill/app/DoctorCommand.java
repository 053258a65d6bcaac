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
package io.sawmill.app;

import java.io.PrintStream;

import io.sawmill.autoconfigure.SawmillDoctorCommand;
import io.sawmill.doctor.internal.DoctorReport;

/**
 * {@code java -jar sawmill-app.jar doctor [--prop=value ...]}: the doctor command
 * ({@link SawmillDoctorCommand}) under the name the service's image and chart use. It
 * reads the service's configuration from the same sources (application.yml, {@code --}
 * arguments, environment variables), prints the doctor's report and exits. It never
 * consumes and starts no web server.
 * <p>
 * Exit codes: {@value DoctorReport#EXIT_OK} when no finding is FAIL,
 * {@value DoctorReport#EXIT_FAIL} when at least one is, {@value #EXIT_NOT_RUN} when the
 * doctor could not run (e.g. invalid configuration).
 */
public final class DoctorCommand {

	static final String NAME = "doctor";

	/** The configuration could not be read or the doctor could not be created. */
	public static final int EXIT_NOT_RUN = SawmillDoctorCommand.EXIT_NOT_RUN;

	private DoctorCommand() {
	}

	/**
	 * Runs the doctor with the arguments that follow {@code doctor}; returns the exit
	 * code.
	 * @param service the service's {@code @SpringBootApplication} class, whose
	 * configuration the doctor reads
	 */
	public static int run(Class<?> service, String[] args, PrintStream out) {
		return SawmillDoctorCommand.run(service, args, out);
	}

}
