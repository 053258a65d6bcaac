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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import io.sawmill.autoconfigure.SawmillAutoConfiguration;
import io.sawmill.autoconfigure.SawmillObservabilityAutoConfiguration;
import io.sawmill.doctor.Doctor;
import io.sawmill.doctor.DoctorReport;

/**
 * {@code java -jar sawmill-app.jar doctor [--prop=value ...]}: reads the service's
 * configuration from the same sources (application.yml, {@code --} arguments, environment
 * variables), prints the doctor's report and exits. It never consumes: the data path's
 * auto-configuration is excluded, so no listener container, no dead-letter producer and
 * no start-up check (which could create topics) exist, and no web server starts (the
 * service may be running beside it in the same pod).
 * <p>
 * Exit codes: {@value DoctorReport#EXIT_OK} when no finding is FAIL,
 * {@value DoctorReport#EXIT_FAIL} when at least one is, {@value #EXIT_NOT_RUN} when the
 * doctor could not run (e.g. invalid configuration).
 */
public final class DoctorCommand {

	static final String NAME = "doctor";

	/** The configuration could not be read or the doctor could not be created. */
	public static final int EXIT_NOT_RUN = 2;

	private static final String EXCLUDE = "spring.autoconfigure.exclude";

	private DoctorCommand() {
	}

	/**
	 * Runs the doctor with the arguments that follow {@code doctor}; returns the exit
	 * code.
	 * @param service the service's {@code @SpringBootApplication} class, whose
	 * configuration the doctor reads
	 */
	public static int run(Class<?> service, String[] args, PrintStream out) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(service).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			// the report is the output: the Kafka client's retries to an unreachable
			// broker are its finding
			.properties(Map.of("logging.level.root", "WARN", "logging.level.org.apache.kafka", "ERROR"))
			.listeners(new DoctorOnly());
		try (ConfigurableApplicationContext context = application.run(args)) {
			DoctorReport report = context.getBean(Doctor.class).examine();
			out.print(report.text());
			out.flush();
			return report.exitCode();
		}
		catch (RuntimeException ex) {
			out.println("Sawmill doctor could not run: " + message(ex));
			out.flush();
			return EXIT_NOT_RUN;
		}
	}

	private static String message(Throwable ex) {
		StringBuilder message = new StringBuilder(String.valueOf(ex.getMessage()));
		for (Throwable cause = ex.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
			message.append(" <- ").append(cause.getMessage());
		}
		return message.toString();
	}

	/**
	 * Adds the data path's auto-configurations to whatever the configuration excludes
	 * already, and turns the doctor's own start-up log off, with the highest precedence
	 * so that no configuration source can switch consuming back on.
	 */
	private static final class DoctorOnly implements ApplicationListener<ApplicationEnvironmentPreparedEvent> {

		@Override
		public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
			ConfigurableEnvironment environment = event.getEnvironment();
			Set<String> excluded = new LinkedHashSet<>();
			excluded.addAll(Binder.get(environment).bind(EXCLUDE, Bindable.listOf(String.class)).orElse(List.of()));
			excluded.add(SawmillAutoConfiguration.class.getName());
			excluded.add(SawmillObservabilityAutoConfiguration.class.getName());
			environment.getPropertySources()
				.addFirst(new MapPropertySource("sawmillDoctorCommand",
						Map.of(EXCLUDE, String.join(",", excluded), "sawmill.doctor.startup-log", "false")));
		}

	}

}
