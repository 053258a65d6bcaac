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
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

import io.sawmill.doctor.internal.Doctor;
import io.sawmill.doctor.internal.DoctorReport;
import io.sawmill.doctor.internal.Finding;

/**
 * The doctor's report, condensed, after start-up: one INFO line per finding that is not
 * OK and one summary line. Runs on a thread of its own once the application is ready, and
 * waits there until the listener has committed its first batch (at most
 * {@link #FIRST_COMMIT_WAIT}, for a topic with nothing to consume): its host checks and
 * its own Kafka and Redis connections are not needed to consume, so they do not compete
 * with the first batch for the CPU.
 */
final class DoctorStartupLog implements ApplicationListener<ApplicationReadyEvent> {

	/** How long the report waits for the first committed batch. */
	static final Duration FIRST_COMMIT_WAIT = Duration.ofSeconds(30);

	private static final Duration POLL = Duration.ofMillis(50);

	private static final Logger log = LoggerFactory.getLogger(Doctor.class);

	private final Doctor doctor;

	private final BooleanSupplier firstBatchCommitted;

	private final Duration firstCommitWait;

	/** Logs the report as soon as the application is ready. */
	DoctorStartupLog(Doctor doctor) {
		this(doctor, () -> true, Duration.ZERO);
	}

	/**
	 * @param firstBatchCommitted whether the listener has committed a batch
	 * @param firstCommitWait how long to wait for it at most
	 */
	DoctorStartupLog(Doctor doctor, BooleanSupplier firstBatchCommitted, Duration firstCommitWait) {
		this.doctor = doctor;
		this.firstBatchCommitted = firstBatchCommitted;
		this.firstCommitWait = firstCommitWait;
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		Thread thread = new Thread(() -> {
			awaitFirstCommit();
			logReport();
		}, "sawmill-doctor-startup");
		thread.setDaemon(true);
		thread.start();
	}

	/**
	 * Returns once the first batch is committed, or {@code firstCommitWait} has passed.
	 */
	void awaitFirstCommit() {
		long deadline = System.nanoTime() + firstCommitWait.toNanos();
		try {
			while (!firstBatchCommitted.getAsBoolean() && System.nanoTime() - deadline < 0) {
				Thread.sleep(POLL.toMillis());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
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
