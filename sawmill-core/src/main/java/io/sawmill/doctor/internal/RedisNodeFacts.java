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
package io.sawmill.doctor.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * What one Redis master told the doctor: round-trip times of a few PINGs, the fields of
 * {@code INFO server}, {@code memory}, {@code persistence} and {@code replication}, and
 * the {@code save} setting when {@code CONFIG GET} is allowed (managed services often
 * rename it).
 *
 * @param name how the node is named in findings, e.g. {@code 10.0.3.7:6379}
 * @param host the host the client connects to, for the zone pattern
 * @param roundTrips one entry per PING
 * @param info the INFO fields, all sections merged, and on a Cluster node its
 * {@code cluster-node-timeout} (milliseconds) as {@link #CLUSTER_NODE_TIMEOUT} when
 * {@code CONFIG GET} is allowed
 * @param save the {@code save} setting; empty when {@code CONFIG GET save} was refused
 */
record RedisNodeFacts(String name, @Nullable String host, List<Duration> roundTrips, Map<String, String> info,
		Optional<String> save) {

	RedisNodeFacts {
		roundTrips = List.copyOf(roundTrips);
		info = Map.copyOf(info);
	}

	/** The key of {@code cluster-node-timeout} among the fields. */
	static final String CLUSTER_NODE_TIMEOUT = "cluster-node-timeout";

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
