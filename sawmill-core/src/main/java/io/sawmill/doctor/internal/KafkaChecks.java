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

import java.util.Map;
import java.util.OptionalInt;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The Kafka findings: partitions of the topics (those a route's pattern matches too) vs
 * the consumers of the group (listener threads times replicas), and whether the consumer
 * sets {@code client.rack}.
 */
final class KafkaChecks {

	static final String PARTITIONS = "kafka.partitions";
	static final String RACK = "kafka.client-rack";

	private KafkaChecks() {
	}

	/**
	 * @param partitions the partition count of each topic
	 */
	static Finding partitions(Map<String, Integer> partitions, DoctorConfig config) {
		int total = partitions.values().stream().mapToInt(Integer::intValue).sum();
		OptionalInt replicas = config.replicas();
		String topics = partitions.entrySet()
			.stream()
			.map(e -> e.getKey() + " " + e.getValue())
			.collect(Collectors.joining(", "));
		String consumers = replicas.isPresent()
				? (config.concurrency() * replicas.getAsInt()) + " consumers (sawmill.concurrency "
						+ config.concurrency() + " x " + replicas.getAsInt() + " replicas)"
				: "sawmill.concurrency " + config.concurrency() + " x unknown replicas";
		String measured = total + " partitions (" + topics + ") for " + consumers;
		if (config.sharedPartitions()) {
			return Finding.ok(PARTITIONS, measured + " in a share group", "a share group hands the records of each "
					+ "partition to every consumer of the group: consumers beyond the partition count share them");
		}
		String why = "a partition is consumed by one consumer of the group at a time: consumers beyond the partition "
				+ "count sit idle, and partitions that do not divide evenly load some threads more than others";
		int known = config.concurrency() * replicas.orElse(1);
		if (known > total) {
			return new Finding(PARTITIONS, Verdict.WARN, measured, why,
					"Add partitions to the topic (kafka-topics --alter --partitions) or lower sawmill.concurrency or the "
							+ "replica count to at most " + total + " consumers in all.");
		}
		if (replicas.isEmpty()) {
			return Finding.unknown(PARTITIONS, measured, why,
					"Set sawmill.doctor.replicas (the chart sets SAWMILL_DOCTOR_REPLICAS from replicaCount).");
		}
		return Finding.ok(PARTITIONS, measured, why);
	}

	static Finding rack(DoctorConfig config) {
		String why = "with client.rack set to this pod's zone, and replica.selector.class=RackAwareReplicaSelector on "
				+ "the brokers, the consumer fetches from a replica in its own zone instead of the leader's: less "
				+ "cross-zone traffic, which is billed";
		if (config.clientRack().isEmpty()) {
			return new Finding(RACK, Verdict.WARN,
					"client.rack not set" + config.zone().map(z -> " (this pod's zone " + z + ")").orElse(""), why,
					"Set spring.kafka.consumer.properties[client.rack] to this pod's zone (the chart's rackAwareness.enabled does).");
		}
		String rack = config.clientRack().get();
		if (config.zone().isPresent() && !config.zone().get().equals(rack)) {
			return new Finding(RACK, Verdict.WARN,
					"client.rack " + rack + ", but this pod runs in " + config.zone().get(), why,
					"Set spring.kafka.consumer.properties[client.rack] to this pod's zone.");
		}
		return Finding.ok(RACK, "client.rack " + rack, why);
	}

	static Finding noTopicMatches(Pattern pattern) {
		return new Finding(PARTITIONS, Verdict.WARN, "no topic matches topic-pattern " + pattern.pattern(),
				"a route's pattern that matches no topic consumes nothing until such a topic is created",
				"Check the routes' topic-pattern against the topics the broker has (kafka-topics --list).");
	}

	static Finding unreachable(String reason) {
		return new Finding(PARTITIONS, Verdict.FAIL, "Kafka did not describe the topics: " + reason,
				"without the topics Sawmill does not start",
				"Check spring.kafka.bootstrap-servers and sawmill.topics.");
	}

}
