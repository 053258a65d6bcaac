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

import java.io.PrintStream;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import io.sawmill.doctor.internal.Doctor;
import io.sawmill.doctor.internal.DoctorReport;

/**
 * The doctor as a command of any application that uses Sawmill: the application reads its
 * configuration from its usual sources (application.yml, arguments, environment
 * variables), but Sawmill's data path is excluded, so nothing is consumed, no dead-letter
 * producer and no start-up check (which could create topics) exist, and no web server
 * starts (the service may be running beside it). The report is printed and the exit code
 * is its verdict.
 * <p>
 * Two ways to run it:
 * <ul>
 * <li>{@code java -jar my-app.jar --sawmill.doctor.command=true} (or
 * {@code SAWMILL_DOCTOR_COMMAND=true}) on any application built on the starter, its
 * {@code main} unchanged: the application exits once the report is printed;</li>
 * <li>{@link #run} from the application's own {@code main} (sawmill-app's {@code doctor}
 * argument), which returns the exit code instead of exiting.</li>
 * </ul>
 * Exit codes: {@value DoctorReport#EXIT_OK} when no finding is FAIL,
 * {@value DoctorReport#EXIT_FAIL} when at least one is, {@value #EXIT_NOT_RUN} when the
 * doctor could not run (e.g. invalid configuration).
 */
public final class SawmillDoctorCommand {

	/** The property that makes a run of the application the doctor command. */
	public static final String PROPERTY = "sawmill.doctor.command";

	/** The configuration could not be read or the doctor could not be created. */
	public static final int EXIT_NOT_RUN = 2;

	private static final String EXCLUDE = "spring.autoconfigure.exclude";

	/**
	 * The report is the output: logging below WARN (below ERROR for the Kafka client,
	 * whose retries to an unreachable broker are a finding) is off unless the
	 * configuration sets it.
	 */
	private static final Map<String, Object> LOGGING = Map.of("logging.level.root", "WARN",
			"logging.level.org.apache.kafka", "ERROR");

	private SawmillDoctorCommand() {
	}

	/**
	 * Runs {@code application} as the doctor command in this JVM and returns the exit
	 * code.
	 * @param application the application's {@code @SpringBootApplication} class, whose
	 * configuration the doctor reads
	 * @param args the application's arguments
	 * @param out where the report goes
	 */
	public static int run(Class<?> application, String[] args, PrintStream out) {
		// logging is set up before this listener runs: its defaults go in first
		SpringApplicationBuilder builder = new SpringApplicationBuilder(application).properties(LOGGING)
			.listeners((ApplicationListener<ApplicationEnvironmentPreparedEvent>) event -> doctorOnly(
					event.getEnvironment()));
		try (ConfigurableApplicationContext context = builder.run(args)) {
			return examine(context, out);
		}
		catch (RuntimeException ex) {
			notRun(ex, out);
			return EXIT_NOT_RUN;
		}
	}

	/** Prints the report of the context's doctor and returns its exit code. */
	static int examine(ConfigurableApplicationContext context, PrintStream out) {
		if (context.getBeanProvider(Doctor.class).getIfAvailable() == null) {
			throw new IllegalStateException("the doctor is off (sawmill.doctor.enabled=false)");
		}
		DoctorReport report = context.getBean(Doctor.class).examine();
		out.print(report.text());
		out.flush();
		return report.exitCode();
	}

	static void notRun(Throwable ex, PrintStream out) {
		StringBuilder message = new StringBuilder(String.valueOf(ex.getMessage()));
		for (Throwable cause = ex.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
			message.append(" <- ").append(cause.getMessage());
		}
		out.println("Sawmill doctor could not run: " + message);
		out.flush();
	}

	/**
	 * Excludes the data path's auto-configurations besides whatever the configuration
	 * excludes already, with the highest precedence so that no configuration source can
	 * switch consuming back on; no web server, banner or start-up log; quiet logging
	 * unless the configuration sets it.
	 */
	static void doctorOnly(ConfigurableEnvironment environment) {
		Set<String> excluded = new LinkedHashSet<>(
				Binder.get(environment).bind(EXCLUDE, Bindable.listOf(String.class)).orElse(List.of()));
		excluded.add(SawmillAutoConfiguration.class.getName());
		excluded.add(SawmillObservabilityAutoConfiguration.class.getName());
		environment.getPropertySources()
			.addFirst(new MapPropertySource("sawmillDoctorCommand",
					Map.of(EXCLUDE, String.join(",", excluded), "sawmill.doctor.startup-log", "false",
							"spring.main.web-application-type", "none", "spring.main.banner-mode", "off",
							"spring.main.log-startup-info", "false")));
		environment.getPropertySources().addLast(new MapPropertySource("sawmillDoctorCommandDefaults", LOGGING));
	}

}
