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
package io.sawmill.redis.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sawmill.redis.ReplicaShortfallPolicy;

/**
 * The masters of one writer that have fewer replicas attached than
 * {@code wait-for-replicas}, by what their {@code INFO replication} last said, and how
 * many replicas each batch waits for on each of them: all that are asked for, until
 * {@link PipelineConfig#replicaShortfallGrace()} has passed since the shortfall was first
 * seen; then, with {@link ReplicaShortfallPolicy#PROCEED}, those that are attached. A
 * master leaves the list as soon as it answers with enough replicas attached, so that the
 * next batch waits for all of them again.
 * <p>
 * Thread-safe: every listener thread's {@link ReplicaWait} reads and updates it; health,
 * metrics and the admin view read it.
 */
final class AttachedReplicas implements ReplicaShortfalls {

	private static final Logger log = LoggerFactory.getLogger(AttachedReplicas.class);

	/** How long a shortfall is kept without a batch that wrote to its master. */
	static final Duration FORGET_AFTER = Duration.ofMinutes(1);

	private final Clock clock;

	private final Map<String, Shortfall> shortfalls = new ConcurrentHashMap<>();

	AttachedReplicas(Clock clock) {
		this.clock = clock;
	}

	/**
	 * How many replicas a batch's {@code WAIT} on {@code master} asks for: all of
	 * {@code config}'s, or, past the grace with {@link ReplicaShortfallPolicy#PROCEED},
	 * those attached.
	 */
	int toWaitFor(String master, PipelineConfig config) {
		Shortfall shortfall = known(master, clock.instant());
		if (shortfall == null || shortfall.state(clock.instant()) != ReplicaShortfall.State.PROCEEDING) {
			return config.waitForReplicas();
		}
		return Math.min(shortfall.attached, config.waitForReplicas());
	}

	/** Whether {@code master} was short of replicas when it last answered. */
	boolean isShort(String master) {
		return known(master, clock.instant()) != null;
	}

	/** The shortfall of {@code master}, unless it has none or it is forgotten. */
	private @Nullable Shortfall known(String master, Instant now) {
		Shortfall shortfall = shortfalls.get(master);
		return shortfall == null || shortfall.isForgotten(now) ? null : shortfall;
	}

	/**
	 * Records that {@code master} has {@code attached} replicas attached, enough or not.
	 * @return the master's shortfall now, or null when it has enough
	 */
	@Nullable ReplicaShortfall attached(String master, int attached, PipelineConfig config) {
		if (attached >= config.waitForReplicas()) {
			if (shortfalls.remove(master) != null) {
				log.info("Redis {} has {} replica(s) attached again: each batch waits for {} of them", named(master),
						attached, config.waitForReplicas());
			}
			return null;
		}
		Instant now = clock.instant();
		Shortfall shortfall = shortfalls.compute(master, (key, known) -> new Shortfall(master,
				known == null || known.isForgotten(now) ? now : known.since, now, attached, config));
		if (shortfall.since.equals(now)) {
			log.warn(
					"Redis {} has {} of {} replicas attached (sawmill.pipeline.wait-for-replicas): its share "
							+ "of each batch is refused for {} (sawmill.pipeline.replica-shortfall-grace), then {}",
					named(master), attached, config.waitForReplicas(), config.replicaShortfallGrace(),
					config.replicaShortfall() == ReplicaShortfallPolicy.PROCEED
							? "waits only for the replicas attached (sawmill.pipeline.replica-shortfall=proceed)"
							: "still refused until a replica attaches (sawmill.pipeline.replica-shortfall=refuse)");
		}
		return shortfall.view(now);
	}

	/**
	 * The replicas attached to a master, by its {@code INFO replication}: those online,
	 * synchronised and taking its stream (a replica still loading the master's snapshot
	 * confirms nothing yet); -1 when the node is not a master.
	 */
	static int online(String replication) {
		if (!replication.contains("role:master")) {
			return -1;
		}
		return (int) replication.lines()
			.filter(line -> line.startsWith("slave") && line.contains(":ip=") && line.contains(",state=online,"))
			.count();
	}

	/**
	 * A master as log lines name it: by its address on a cluster, as "master" on a
	 * standalone or Sentinel-managed connection.
	 */
	private static String named(String master) {
		return "master".equals(master) ? master : "master " + master;
	}

	@Override
	public List<ReplicaShortfall> current() {
		Instant now = clock.instant();
		shortfalls.values().removeIf(shortfall -> shortfall.isForgotten(now));
		return shortfalls.values()
			.stream()
			.filter(shortfall -> !shortfall.isForgotten(now))
			.map(shortfall -> shortfall.view(now))
			.sorted(Comparator.comparing(ReplicaShortfall::master))
			.toList();
	}

	/**
	 * One master's shortfall, since it was first seen, as a batch that wrote to it last
	 * saw it.
	 */
	private record Shortfall(String master, Instant since, Instant seen, int attached, PipelineConfig config) {

		boolean isForgotten(Instant now) {
			return Duration.between(seen, now).compareTo(FORGET_AFTER) > 0;
		}

		ReplicaShortfall.State state(Instant now) {
			if (Duration.between(since, now).compareTo(config.replicaShortfallGrace()) < 0) {
				return ReplicaShortfall.State.WAITING;
			}
			return config.replicaShortfall() == ReplicaShortfallPolicy.PROCEED ? ReplicaShortfall.State.PROCEEDING
					: ReplicaShortfall.State.REFUSING;
		}

		ReplicaShortfall view(Instant now) {
			return new ReplicaShortfall(master, attached, config.waitForReplicas(), since, state(now));
		}

	}

}
