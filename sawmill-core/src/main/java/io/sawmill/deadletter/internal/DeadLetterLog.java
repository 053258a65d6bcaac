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

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sawmill.deadletter.DeadLetter;

/**
 * The log of published dead letters: one WARN line at most every {@link #INTERVAL}, with
 * how many records were dead-lettered since the last line, to which topics, and the first
 * of them with its reason. The first dead letter after a quiet interval is logged at
 * once; those that follow within the interval are counted into the next line. Each dead
 * letter is in its dead-letter topic with its reason ({@code sawmill-dlt-reason}), and
 * counted in {@code sawmill_records_total{outcome="dead_lettered"}}.
 * <p>
 * Thread-safe: listener threads publish concurrently.
 */
final class DeadLetterLog {

	static final Duration INTERVAL = Duration.ofSeconds(30);

	private static final Logger log = LoggerFactory.getLogger(DeadLetterLog.class);

	private final Clock clock;

	private @Nullable Instant lastLine;

	private long count;

	private final Set<String> topics = new TreeSet<>();

	private @Nullable DeadLetter first;

	DeadLetterLog(Clock clock) {
		this.clock = clock;
	}

	/**
	 * These dead letters were published.
	 * @param deadLetterTopic the dead-letter topic of a source topic
	 */
	synchronized void published(List<DeadLetter> deadLetters, Function<String, String> deadLetterTopic) {
		if (deadLetters.isEmpty()) {
			return;
		}
		count += deadLetters.size();
		if (first == null) {
			first = deadLetters.get(0);
		}
		deadLetters.forEach(deadLetter -> topics.add(deadLetterTopic.apply(deadLetter.record().topic())));
		Instant now = clock.instant();
		if (lastLine == null || Duration.between(lastLine, now).compareTo(INTERVAL) >= 0) {
			DeadLetter example = first;
			log.warn("{} record{} dead-lettered{} to {}; the first, {}-{}@{}: {}", count,
					count == 1 ? " was" : "s were", lastLine == null ? "" : " since " + lastLine,
					String.join(", ", topics), example.record().topic(), example.record().partition(),
					example.record().offset(), example.reason());
			lastLine = now;
			count = 0;
			topics.clear();
			first = null;
		}
	}

}
