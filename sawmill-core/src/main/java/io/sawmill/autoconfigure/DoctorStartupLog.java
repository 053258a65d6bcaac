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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

import io.sawmill.doctor.Doctor;
import io.sawmill.doctor.DoctorReport;
import io.sawmill.doctor.Finding;

/**
 * The doctor's report, condensed, once the application is ready: one INFO line per
 * finding that is not OK and one summary line. Runs on a thread of its own so that
 * readiness does not wait for it.
 */
final class DoctorStartupLog implements ApplicationListener<ApplicationReadyEvent> {

	private static final Logger log = LoggerFactory.getLogger(Doctor.class);

	private final Doctor doctor;

	DoctorStartupLog(Doctor doctor) {
		this.doctor = doctor;
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		Thread thread = new Thread(this::logReport, "sawmill-doctor-startup");
		thread.setDaemon(true);
		thread.start();
	}

	void logReport() {
		try {
			DoctorReport report = doctor.examine();
			for (Finding finding : report.problems()) {
				log.info("Sawmill doctor {}", finding.oneLine());
			}
			log.info(
					"Sawmill doctor: {} ({}); the full report: GET /actuator/sawmill or java -jar sawmill-app.jar doctor",
					report.verdict(), report.summary());
		}
		catch (RuntimeException ex) {
			log.warn("Sawmill doctor could not examine this host: {}", ex.toString());
		}
	}

}
