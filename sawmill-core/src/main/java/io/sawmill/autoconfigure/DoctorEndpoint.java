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

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import io.sawmill.doctor.internal.Doctor;
import io.sawmill.doctor.internal.DoctorReport;

/**
 * The doctor's report at {@code GET /actuator/sawmill}, measured afresh on every request
 * (a few PINGs, INFO, a topic description: well under a second on a healthy system).
 * Reachable over HTTP where the operator exposes it
 * ({@code management.endpoints.web.exposure.include=sawmill}; the sawmill-app does).
 */
@Endpoint(id = "sawmill", defaultAccess = Access.READ_ONLY)
final class DoctorEndpoint {

	private final Doctor doctor;

	DoctorEndpoint(Doctor doctor) {
		this.doctor = doctor;
	}

	/**
	 * The verdict, the worst of all findings, and every finding with its measured value,
	 * why and what to change.
	 */
	@ReadOperation
	public DoctorReport report() {
		return doctor.examine();
	}

}
