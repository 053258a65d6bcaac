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
package io.sawmill.it.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;

import io.sawmill.it.support.Kafka;
import io.sawmill.testkit.RedisVerifier;

/**
 * What every fault scenario asserts once the fault is over: committed offsets = end
 * offsets, every key holds the last version produced for it with its TTL, Redis executed
 * at least one HSET per record (0 lost; any more are duplicates, which at-least-once
 * allows), and the dead-letter topic is empty. The figures go to
 * {@code target/fault-figures/<scenario>.txt} for docs/reliability.md.
 */
final class FaultAssertions {

	static final Duration TTL = Duration.ofHours(1);

	private FaultAssertions() {
	}

	/** The numbers of one run. */
	record Figures(String scenario, long produced, long keys, long keysVerified, long committed, long hsets,
			long deadLettered) {

		long duplicates() {
			return hsets - produced;
		}

		@Override
		public String toString() {
			return "scenario=" + scenario + " produced=" + produced + " committed=" + committed + " keys=" + keys
					+ " keysVerified=" + keysVerified + " hsets=" + hsets + " duplicates=" + duplicates()
					+ " deadLettered=" + deadLettered;
		}
	}

	/**
	 * {@code target/<name>} of the src-it module: logs, broker data and certificates,
	 * gone with {@code mvn clean}.
	 */
	static Path target(String name) {
		return Path.of(System.getProperty("basedir", System.getProperty("user.dir")), "target", name);
	}

	static String deadLetterTopic(String topic) {
		return topic + ".DLT";
	}

	/**
	 * Creates the topic and its {@code <topic>.DLT} with as many partitions, so that a
	 * dead-letter publisher that keeps the original partition finds it, and so the test
	 * can show it stays empty.
	 */
	static void createTopics(Admin admin, String topic, int partitions) throws Exception {
		Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
		for (String name : new String[] { topic, deadLetterTopic(topic) }) {
			if (!existing.contains(name)) {
				admin.createTopics(java.util.List.of(new NewTopic(name, partitions, (short) 1)))
					.all()
					.get(30, TimeUnit.SECONDS);
			}
		}
	}

	/**
	 * Waits until the group has committed every partition's end offset and returns them.
	 */
	static Map<TopicPartition, Long> awaitAllCommitted(Admin admin, String group, String topic, int partitions,
			long expectedRecords, Duration atMost) throws Exception {
		Map<TopicPartition, Long> end = Kafka.endOffsets(admin, topic, partitions);
		assertThat(Kafka.sum(end)).as("records in %s", topic).isEqualTo(expectedRecords);
		await("group " + group + " commits every end offset " + end).atMost(atMost)
			.pollInterval(Duration.ofMillis(250))
			.ignoreExceptions()
			.until(() -> uncommitted(admin, group, end) == 0);
		return end;
	}

	/** Records between the group's committed offsets and {@code end}. */
	static long uncommitted(Admin admin, String group, Map<TopicPartition, Long> end) throws Exception {
		Map<TopicPartition, Long> committed = Kafka.committedOffsets(admin, group);
		return end.entrySet().stream().mapToLong(e -> e.getValue() - committed.getOrDefault(e.getKey(), 0L)).sum();
	}

	static long committed(Admin admin, String group) throws Exception {
		return Kafka.sum(Kafka.committedOffsets(admin, group));
	}

	/**
	 * The full check once the fault is over; returns the figures it also writes to
	 * target/.
	 */
	static Figures assertNothingLost(String scenario, Admin admin, String group, String topic, int partitions,
			VersionedEvents events, RedisReadBack redis, Duration atMost) throws Exception {
		Map<TopicPartition, Long> end = awaitAllCommitted(admin, group, topic, partitions, events.records(), atMost);
		RedisVerifier.Result result = redis.verify(events, TTL);
		long hsets = redis.hsetCalls();
		long deadLettered = Kafka.sum(Kafka.endOffsets(admin, deadLetterTopic(topic), partitions));
		Figures figures = new Figures(scenario, events.records(), events.keys(), result.verified(), Kafka.sum(end),
				hsets, deadLettered);
		write(figures);
		assertThat(result.allVerified()).as("%s: %s", scenario, result).isTrue();
		assertThat(hsets).as("%s: HSETs executed by Redis, at least one per record", scenario)
			.isGreaterThanOrEqualTo(events.records());
		assertThat(deadLettered).as("%s: records in %s", scenario, deadLetterTopic(topic)).isZero();
		return figures;
	}

	private static void write(Figures figures) {
		System.out.println("FAULT FIGURES " + figures);
		try {
			Path dir = target("fault-figures");
			Files.createDirectories(dir);
			Files.writeString(dir.resolve(figures.scenario() + ".txt"), figures + System.lineSeparator());
		}
		catch (IOException ex) {
			System.out.println("could not write the figures: " + ex);
		}
	}

}
