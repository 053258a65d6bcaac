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
package io.sawmill.health.internal;

import java.util.LinkedHashMap;
import java.util.Map;

import io.sawmill.deadletter.internal.DeadLetterBrake;

/**
 * Down while the {@link DeadLetterBrake} is engaged: nothing is committed until an
 * operator releases it (or it releases itself, at {@code releasesAt}), and the details
 * say why it engaged (the rule, the partition and offset of the last dead letter and its
 * reason) and how to release it. Liveness and readiness are not affected: a restart would
 * not help, and the instance keeps its partitions.
 */
public final class DeadLetterBrakeHealth {

	private final DeadLetterBrake brake;

	public DeadLetterBrakeHealth(DeadLetterBrake brake) {
		this.brake = brake;
	}

	public HealthReport check() {
		Map<String, Object> details = new LinkedHashMap<>();
		return brake.engaged().map(trip -> {
			details.put("state", "engaged");
			details.put("reason", trip.describe());
			details.put("topic", trip.topic());
			details.put("partition", trip.partition());
			details.put("offset", trip.offset());
			details.put("since", trip.at().toString());
			details.put("release", "POST /actuator/sawmill/brake {\"action\":\"release\"} once the cause is fixed");
			brake.releasesAt().ifPresent(at -> details.put("releasesAt", at.toString()));
			return new HealthReport(false, details);
		}).orElseGet(() -> {
			details.put("state", "released");
			return new HealthReport(true, details);
		});
	}

}
