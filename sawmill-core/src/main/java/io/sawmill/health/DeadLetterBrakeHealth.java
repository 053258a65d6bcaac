package io.sawmill.health;

import java.util.LinkedHashMap;
import java.util.Map;

import io.sawmill.deadletter.DeadLetterBrake;

/**
 * Down while the {@link DeadLetterBrake} is engaged: nothing is committed until an operator
 * releases it, and the details say why it engaged (the rule, the partition and offset of the
 * last dead letter and its reason) and how to release it. Liveness and readiness are not
 * affected: a restart would not help, and the instance keeps its partitions.
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
			return new HealthReport(false, details);
		}).orElseGet(() -> {
			details.put("state", "released");
			return new HealthReport(true, details);
		});
	}
}
