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
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import io.sawmill.redis.ReplicaShortfallPolicy;

/**
 * The Redis findings for one master, as a pure function of what it answered
 * ({@link RedisNodeFacts}) and the configuration: RTT, zone, version,
 * {@code maxmemory-policy}, persistence, replicas.
 */
final class RedisChecks {

	static final String CONNECTION = "redis.connection";
	static final String RTT = "redis.rtt";
	static final String ZONE = "redis.zone";
	static final String VERSION = "redis.version";
	static final String EVICTION = "redis.maxmemory-policy";
	static final String PERSISTENCE = "redis.persistence";
	static final String REPLICAS = "redis.replicas";
	static final String SHORTFALL_GRACE = "redis.replica-shortfall-grace";

	/**
	 * Median RTT from which the finding is WARN: a round trip to another zone is about 1
	 * ms.
	 */
	static final Duration WARN_RTT = Duration.ofMillis(1);

	/** Median RTT from which the finding is FAIL. */
	static final Duration FAIL_RTT = Duration.ofMillis(10);

	private RedisChecks() {
	}

	static List<Finding> check(RedisNodeFacts node, DoctorConfig config) {
		List<Finding> findings = new ArrayList<>();
		findings.add(roundTrip(node));
		findings.add(zone(node, config));
		findings.add(version(node));
		findings.add(eviction(node));
		findings.add(persistence(node));
		findings.add(replicas(node, config));
		node.field(RedisNodeFacts.CLUSTER_NODE_TIMEOUT)
			.ifPresent(timeout -> findings.add(shortfallGrace(node, config)));
		return findings;
	}

	static Finding roundTrip(RedisNodeFacts node) {
		Duration median = node.medianRoundTrip();
		String measured = String.format(Locale.ROOT, "%s: median %s of %d PINGs (%s)", node.name(), millis(median),
				node.roundTrips().size(),
				node.roundTrips().stream().map(RedisChecks::millis).collect(Collectors.joining(", ")));
		String why = "each batch waits for at least one round trip before its offsets are committed, so RTT bounds a "
				+ "listener thread's batches per second; ~0.1 ms in the same zone, ~1 ms across zones";
		if (median.compareTo(WARN_RTT) < 0) {
			return Finding.ok(RTT, measured, why);
		}
		return new Finding(RTT, median.compareTo(FAIL_RTT) >= 0 ? Verdict.FAIL : Verdict.WARN, measured, why,
				"Run Sawmill in the Redis master's zone (see redis.zone), check the network path and Redis's own latency "
						+ "(redis-cli --latency, SLOWLOG); raise sawmill.batch-size to amortise the round trip.");
	}

	static Finding zone(RedisNodeFacts node, DoctorConfig config) {
		Optional<String> redisZone = config.redisZone().or(() -> config.redisZonePattern().flatMap(pattern -> {
			Matcher matcher = pattern
				.matcher(Objects.requireNonNull(node.host(), "the zone pattern reads the master's host"));
			return matcher.find() ? Optional.ofNullable(matcher.group(1)) : Optional.empty();
		}));
		String why = "a master in another zone costs a cross-zone round trip per batch and cross-zone traffic is billed";
		if (config.zone().isEmpty() || redisZone.isEmpty()) {
			return Finding.unknown(ZONE,
					node.name() + ": this pod's zone " + config.zone().orElse("unknown") + ", the master's zone "
							+ redisZone.orElse("unknown") + " (Redis INFO has no zone)",
					why,
					"Set sawmill.doctor.zone (the chart sets SAWMILL_DOCTOR_ZONE with rackAwareness.enabled), and "
							+ "sawmill.doctor.redis-zone, or sawmill.doctor.redis-zone-pattern to find the zone in the "
							+ "master's host name.");
		}
		String measured = node.name() + ": this pod in " + config.zone().get() + ", the master in " + redisZone.get();
		if (config.zone().get().equals(redisZone.get())) {
			return Finding.ok(ZONE, measured, why);
		}
		return new Finding(ZONE, Verdict.WARN, measured, why,
				"Schedule Sawmill in the master's zone (nodeAffinity on topology.kubernetes.io/zone), or move the "
						+ "master (Sentinel: replica-priority; Cluster: CLUSTER FAILOVER on a replica in this zone).");
	}

	static Finding version(RedisNodeFacts node) {
		Optional<String> version = node.field("redis_version");
		String why = "Sawmill writes hashes with several fields per HSET (Redis 4.0 and later); ACL users and TLS "
				+ "(spring.data.redis.username, ssl) need 6.0";
		if (version.isEmpty()) {
			return Finding.unknown(VERSION, node.name() + ": INFO server refused or without redis_version", why, "");
		}
		String measured = node.name() + ": Redis " + version.get();
		int[] parsed = majorMinor(version.get());
		if (parsed == null) {
			return Finding.unknown(VERSION, measured, why, "");
		}
		if (parsed[0] < 4) {
			return new Finding(VERSION, Verdict.FAIL, measured, why, "Upgrade Redis to 6.2 or later.");
		}
		if (parsed[0] < 6) {
			return new Finding(VERSION, Verdict.WARN, measured, why + "; versions before 6 are no longer maintained",
					"Upgrade Redis to 6.2 or later.");
		}
		return Finding.ok(VERSION, measured, why);
	}

	static Finding eviction(RedisNodeFacts node) {
		Optional<String> policy = node.field("maxmemory_policy");
		String why = "an evicting policy deletes keys Sawmill wrote when memory runs out, without an error; their "
				+ "offsets are committed, so Kafka does not deliver them again. With noeviction a full Redis refuses "
				+ "writes (OOM), which Sawmill retries and dead-letters, visibly";
		if (policy.isEmpty()) {
			return Finding.unknown(EVICTION, node.name() + ": INFO memory refused or without maxmemory_policy", why,
					"");
		}
		long maxmemory = node.field("maxmemory").map(Long::parseLong).orElse(0L);
		String measured = node.name() + ": maxmemory-policy " + policy.get() + ", maxmemory " + maxmemory;
		if (policy.get().equals("noeviction")) {
			return Finding.ok(EVICTION, measured, why);
		}
		String change = "CONFIG SET maxmemory-policy noeviction (and in redis.conf or the service's parameter group), "
				+ "and size maxmemory for the data Sawmill keeps (sawmill.mapping.ttl bounds it).";
		if (maxmemory == 0) {
			return new Finding(EVICTION, Verdict.WARN, measured,
					why + "; without maxmemory it evicts nothing yet, but does as soon as a limit is set", change);
		}
		return new Finding(EVICTION, Verdict.FAIL, measured, why, change);
	}

	static Finding persistence(RedisNodeFacts node) {
		String why = "Sawmill commits a batch's offsets once Redis has acknowledged it; what a restarted Redis has not "
				+ "persisted is lost, and Kafka does not deliver it again";
		String change = "Turn on AOF (appendonly yes, appendfsync everysec), or accept the loss and re-consume from "
				+ "an earlier offset after a Redis restart.";
		if (node.field("aof_enabled").isEmpty()) {
			return Finding.unknown(PERSISTENCE, node.name() + ": INFO persistence refused or without aof_enabled", why,
					"Check appendonly and save where Redis is configured.");
		}
		if (node.field("aof_enabled").filter("1"::equals).isPresent()) {
			return Finding.ok(PERSISTENCE,
					node.name() + ": AOF on" + node.save().map(s -> ", save '" + s + "'").orElse(""), why);
		}
		if (node.save().isEmpty()) {
			return Finding.unknown(PERSISTENCE, node.name() + ": AOF off; CONFIG GET save refused", why,
					"Check the RDB snapshot schedule where Redis is configured.");
		}
		String save = node.save().get();
		if (save.isBlank()) {
			return new Finding(PERSISTENCE, Verdict.FAIL, node.name() + ": no persistence (AOF off, save '')",
					why + ": here, everything", change);
		}
		return new Finding(PERSISTENCE, Verdict.WARN,
				node.name() + ": RDB snapshots only (AOF off, save '" + save + "')",
				why + ": here, what was written since the last snapshot", change);
	}

	static Finding replicas(RedisNodeFacts node, DoctorConfig config) {
		if (node.field("role").isEmpty()) {
			return Finding.unknown(REPLICAS, node.name() + ": INFO replication refused or without role",
					"a replica refuses writes, and fewer replicas than sawmill.pipeline.wait-for-replicas fail every batch",
					"Check the replicas where Redis is configured.");
		}
		String role = node.field("role").get();
		int connected = node.field("connected_slaves").map(Integer::parseInt).orElse(0);
		int wait = config.waitForReplicas();
		String measured = node.name() + ": role " + role + ", " + connected + " connected replica(s), "
				+ "sawmill.pipeline.wait-for-replicas " + wait;
		if (!role.equals("master")) {
			return new Finding(REPLICAS, Verdict.FAIL, measured, "a replica refuses writes (READONLY)",
					"Point spring.data.redis at the master (or use Sentinel or Cluster so the client finds it).");
		}
		if (wait > connected) {
			String refused = "batches that write to this master are refused for " + config.replicaShortfallGrace()
					+ " (sawmill.pipeline.replica-shortfall-grace), then ";
			String change = "Attach replicas (a failover leaves the promoted master without one until the failed node "
					+ "returns as its replica), or lower sawmill.pipeline.wait-for-replicas to at most " + connected
					+ ".";
			if (config.replicaShortfall() == ReplicaShortfallPolicy.REFUSE) {
				return new Finding(REPLICAS, Verdict.FAIL, measured, refused
						+ "still refused (sawmill.pipeline.replica-shortfall=refuse): their partitions are not committed "
						+ "until a replica attaches", change);
			}
			return new Finding(REPLICAS, Verdict.WARN, measured, refused + "committed once the " + connected
					+ " replica(s) attached confirm them (sawmill.pipeline.replica-shortfall=proceed): what is written "
					+ "meanwhile has fewer copies than asked", change);
		}
		if (connected == 0) {
			return new Finding(REPLICAS, Verdict.WARN, measured,
					"without a replica, losing the master loses what it had not persisted",
					"Run at least one replica (Sentinel or Cluster) and set sawmill.pipeline.wait-for-replicas to 1.");
		}
		return Finding.ok(REPLICAS, measured, "a batch is committed once " + Math.max(wait, 0)
				+ " replica(s) confirmed it; the others catch up asynchronously");
	}

	/**
	 * Whether the replica-shortfall grace outlasts the Cluster's
	 * {@code cluster-node-timeout}: a master cut off from the others refuses writes once
	 * that has passed, so a batch never goes on without replicas to a master the cluster
	 * is replacing.
	 */
	static Finding shortfallGrace(RedisNodeFacts node, DoctorConfig config) {
		String why = "a master cut off from the others refuses writes after cluster-node-timeout; a batch refused for "
				+ "a master short of replicas goes on without them after sawmill.pipeline.replica-shortfall-grace, so "
				+ "the grace must be longer, or a cut-off master may take writes the cluster then discards";
		long timeoutMillis;
		try {
			timeoutMillis = Long.parseLong(node.field(RedisNodeFacts.CLUSTER_NODE_TIMEOUT).orElse(""));
		}
		catch (NumberFormatException ex) {
			return Finding.unknown(SHORTFALL_GRACE, node.name() + ": cluster-node-timeout unreadable", why, "");
		}
		Duration timeout = Duration.ofMillis(timeoutMillis);
		String measured = node.name() + ": cluster-node-timeout " + timeout
				+ ", sawmill.pipeline.replica-shortfall-grace " + config.replicaShortfallGrace();
		if (config.replicaShortfall() == ReplicaShortfallPolicy.REFUSE
				|| config.replicaShortfallGrace().compareTo(timeout) > 0) {
			return Finding.ok(SHORTFALL_GRACE, measured, why);
		}
		return new Finding(SHORTFALL_GRACE, Verdict.WARN, measured, why,
				"Set sawmill.pipeline.replica-shortfall-grace above " + timeout + " (twice is a margin for gossip).");
	}

	private static int @Nullable [] majorMinor(String version) {
		String[] parts = version.split("\\.");
		try {
			return new int[] { Integer.parseInt(parts[0]), parts.length > 1 ? Integer.parseInt(parts[1]) : 0 };
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private static String millis(Duration duration) {
		return String.format(Locale.ROOT, "%.3f ms", duration.toNanos() / 1e6);
	}

}
