package io.sawmill.autoconfigure;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import io.sawmill.doctor.Doctor;
import io.sawmill.doctor.DoctorReport;

/**
 * The doctor's report at {@code GET /actuator/sawmill}, measured afresh on every request (a few
 * PINGs, INFO, a topic description: well under a second on a healthy system). Reachable over HTTP
 * where the operator exposes it ({@code management.endpoints.web.exposure.include=sawmill}; the
 * sawmill-app does).
 */
@Endpoint(id = "sawmill")
final class DoctorEndpoint {

	private final Doctor doctor;

	DoctorEndpoint(Doctor doctor) {
		this.doctor = doctor;
	}

	/** The verdict, the worst of all findings, and every finding with its measured value, why and what to change. */
	@ReadOperation
	public DoctorReport report() {
		return doctor.examine();
	}
}
