package io.sawmill.doctor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one Redis master told the doctor: round-trip times of a few PINGs, the fields of
 * {@code INFO server}, {@code memory}, {@code persistence} and {@code replication}, and the
 * {@code save} setting when {@code CONFIG GET} is allowed (managed services often rename it).
 *
 * @param name how the node is named in findings, e.g. {@code 10.0.3.7:6379}
 * @param host the host the client connects to, for the zone pattern
 * @param roundTrips one entry per PING
 * @param info the INFO fields, all sections merged
 * @param save the {@code save} setting; empty when {@code CONFIG GET save} was refused
 */
record RedisNodeFacts(String name, String host, List<Duration> roundTrips, Map<String, String> info,
		Optional<String> save) {

	RedisNodeFacts {
		roundTrips = List.copyOf(roundTrips);
		info = Map.copyOf(info);
	}

	/** The sections the checks read. */
	static final List<String> SECTIONS = List.of("server", "memory", "persistence", "replication");

	Optional<String> field(String name) {
		return Optional.ofNullable(info.get(name));
	}

	Duration medianRoundTrip() {
		List<Duration> sorted = new ArrayList<>(roundTrips);
		sorted.sort(null);
		return sorted.get(sorted.size() / 2);
	}
}
