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
package io.sawmill.deadletter.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.sawmill.deadletter.DeadLetter;

/**
 * What the {@link DeadLetterBrake} looks at: per partition, the offsets of the dead
 * letters among its last {@code window} records (by offset, so records written to Redis
 * count without being seen here), and the dead letters of the last minute in one-second
 * buckets. An offset seen again (a batch polled again after it was not committed) is
 * counted once. Not thread-safe: the brake serializes calls.
 */
final class DeadLetterWindow {

	private static final int SECONDS = 60;

	private final DeadLetterBrakeConfig config;

	private final Map<String, TreeSet<Long>> partitions = new HashMap<>();

	private final long[] bucketSecond = new long[SECONDS];

	private final int[] bucketCount = new int[SECONDS];

	/** A rule broken by a dead letter. */
	record Breach(DeadLetter deadLetter, String rule) {
	}

	DeadLetterWindow(DeadLetterBrakeConfig config) {
		this.config = config;
	}

	/**
	 * Counts the dead letters, in order.
	 * @return the first dead letter that broke a rule and the rule, or null
	 */
	@Nullable Breach add(List<DeadLetter> deadLetters, long nowMillis) {
		long second = Math.floorDiv(nowMillis, 1000);
		for (DeadLetter deadLetter : deadLetters) {
			ConsumerRecord<byte[], byte[]> record = deadLetter.record();
			String partition = record.topic() + "-" + record.partition();
			TreeSet<Long> offsets = partitions.computeIfAbsent(partition, ignored -> new TreeSet<>());
			long newest = offsets.isEmpty() ? record.offset() : Math.max(offsets.last(), record.offset());
			long oldestInWindow = newest - config.window() + 1;
			if (record.offset() < oldestInWindow || !offsets.add(record.offset())) {
				continue;
			}
			while (offsets.first() < oldestInWindow) {
				offsets.pollFirst();
			}
			if (offsets.size() >= config.deadLettersToTrip()) {
				return new Breach(deadLetter,
						offsets.size() + " of the last " + config.window() + " records of " + partition
								+ " dead-lettered (sawmill.dead-letter.brake.max-ratio=" + config.maxRatio()
								+ ", window=" + config.window() + ")");
			}
			int perMinute = countThisSecond(second);
			if (config.maxPerMinute() > 0 && perMinute > config.maxPerMinute()) {
				return new Breach(deadLetter, perMinute + " dead letters within a minute (sawmill.dead-letter.brake"
						+ ".max-per-minute=" + config.maxPerMinute() + ")");
			}
		}
		return null;
	}

	/**
	 * Counts one dead letter in this second's bucket and returns the count of the last
	 * minute.
	 */
	private int countThisSecond(long second) {
		int index = (int) Math.floorMod(second, (long) SECONDS);
		if (bucketSecond[index] != second) {
			bucketSecond[index] = second;
			bucketCount[index] = 0;
		}
		bucketCount[index]++;
		int total = 0;
		for (int i = 0; i < SECONDS; i++) {
			if (bucketSecond[i] > second - SECONDS) {
				total += bucketCount[i];
			}
		}
		return total;
	}

	void clear() {
		partitions.clear();
		java.util.Arrays.fill(bucketSecond, 0);
		java.util.Arrays.fill(bucketCount, 0);
	}

}
