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

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import org.jspecify.annotations.Nullable;

import io.sawmill.admin.internal.ReplicaShortfallView;
import io.sawmill.admin.internal.SawmillOperations;
import io.sawmill.deadletter.internal.DeadLetterBrake;
import io.sawmill.doctor.internal.Doctor;
import io.sawmill.doctor.internal.DoctorReport;
import io.sawmill.health.internal.DeadLetterBrakeHealth;

/**
 * Sawmill's Actuator endpoint. The dead-letter brake: {@code GET /actuator/sawmill/brake}
 * shows it, {@code POST /actuator/sawmill/brake} with {@code {"action":"release"}}
 * releases it. Like every endpoint it is reachable over HTTP (or JMX) only where the
 * operator exposes it ({@code management.endpoints.web.exposure.include=sawmill}). Its
 * access is read-only by default, in any application that uses Sawmill: the write
 * operations (release, pause, resume, redrive) answer 4xx until the operator opts in with
 * {@code management.endpoint.sawmill.access=unrestricted}, and should then be secured as
 * Boot's own write operations are. With the brake off, {@code brake} answers 404.
 * {@code GET /actuator/sawmill} is the doctor's report when the doctor is on (the same
 * operation as {@link DoctorEndpoint}'s, which stands in where the data path is off).
 * <p>
 * The operator's operations ({@link SawmillOperations},
 * docs/operations.md#admin-operations): {@code GET /actuator/sawmill/partitions};
 * {@code POST /actuator/sawmill/pause} and {@code /resume} with
 * {@code {"topic":"orders"}} (every topic without one);
 * {@code POST /actuator/sawmill/redrive} with
 * {@code {"topic":"orders.DLT","partition":0,"from":100,"to":200}}.
 * {@code GET /actuator/sawmill/replicas}: the Redis masters with fewer replicas attached
 * than {@code sawmill.pipeline.wait-for-replicas}, and the policy that applies to them.
 */
@Endpoint(id = "sawmill", defaultAccess = Access.READ_ONLY)
final class SawmillEndpoint {

	static final String BRAKE = "brake";

	static final String PARTITIONS = "partitions";

	static final String REPLICAS = "replicas";

	private final @Nullable DeadLetterBrake brake;

	private final @Nullable Doctor doctor;

	private final @Nullable SawmillOperations operations;

	private final @Nullable ReplicaShortfallView replicas;

	SawmillEndpoint(DeadLetterBrake brake) {
		this(brake, null, null, null);
	}

	/**
	 * @param brake null when the dead-letter brake is off
	 * @param doctor null when the doctor is off
	 * @param operations null where there is no listener container (its operations answer
	 * 404)
	 * @param replicas null where there is no writer (404)
	 */
	SawmillEndpoint(@Nullable DeadLetterBrake brake, @Nullable Doctor doctor, @Nullable SawmillOperations operations,
			@Nullable ReplicaShortfallView replicas) {
		this.brake = brake;
		this.doctor = doctor;
		this.operations = operations;
		this.replicas = replicas;
	}

	/** The doctor's report, measured afresh; null (404) when the doctor is off. */
	@ReadOperation
	public @Nullable DoctorReport report() {
		return doctor == null ? null : doctor.examine();
	}

	/**
	 * {@code brake}: the brake's state, as its health contribution reports it;
	 * {@code partitions}: {@link SawmillOperations#partitions()}; {@code replicas}: the
	 * Redis masters short of replicas ({@link ReplicaShortfallView#view()}); null (404)
	 * for anything else.
	 */
	@ReadOperation
	public @Nullable Map<String, Object> read(@Selector String part) throws Exception {
		if (PARTITIONS.equals(part) && operations != null) {
			return operations.partitions();
		}
		if (REPLICAS.equals(part) && replicas != null) {
			return replicas.view();
		}
		if (!BRAKE.equals(part) || brake == null) {
			return null;
		}
		return new DeadLetterBrakeHealth(brake).check().details();
	}

	/**
	 * {@code brake} with {@code action=release}: consumption resumes, the refused batches
	 * are polled again; returns what was released ({@code released: false} when the brake
	 * was not engaged). {@code pause}, {@code resume} (optional {@code topic}) and
	 * {@code redrive} ({@code topic}, {@code partition}, {@code from}, {@code to}): see
	 * {@link SawmillOperations}. A bad argument answers 400 with what to change.
	 */
	@WriteOperation
	public @Nullable Map<String, Object> act(@Selector String part, @Nullable String action, @Nullable String topic,
			@Nullable Integer partition, @Nullable Long from, @Nullable Long to) throws Exception {
		if (operations != null && SawmillEndpointOperations.handles(part)) {
			return SawmillEndpointOperations.act(operations, part, topic, partition, from, to);
		}
		if (!BRAKE.equals(part) || brake == null) {
			return null;
		}
		if (!"release".equals(action)) {
			throw new InvalidEndpointRequestException("Unknown action '" + action + "' on the dead-letter brake",
					"action must be 'release', but was '" + action + "'");
		}
		Map<String, Object> result = new LinkedHashMap<>();
		brake.release().ifPresentOrElse(trip -> {
			result.put("released", true);
			result.put("was", trip.describe());
		}, () -> result.put("released", false));
		return result;
	}

}
