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

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs, at WARN, a transient error reply that is not a well-known outage (an unknown
 * command, a proxy's error, a reply Sawmill does not list): the listener pauses on it,
 * and an operator must see why. At most one line per reply kind (its first word, or its
 * first two for {@code ERR}) every {@value #INTERVAL_SECONDS} s, with how many were left
 * out meanwhile. Thread-safe.
 */
final class UnlistedReplies {

	private static final Logger log = LoggerFactory.getLogger(UnlistedReplies.class);

	static final long INTERVAL_SECONDS = 30;

	private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(INTERVAL_SECONDS);

	/** Bounded: kinds are few in practice, and past this many every reply shares one. */
	private static final int MAX_KINDS = 64;

	private static final Map<String, Kind> kinds = new ConcurrentHashMap<>();

	private UnlistedReplies() {
	}

	static void warn(String reply) {
		String kind = kind(reply);
		Kind seen = kinds.computeIfAbsent(kinds.size() < MAX_KINDS ? kind : "*", k -> new Kind());
		long now = System.nanoTime();
		long last = seen.lastLogged.get();
		if ((last == 0 || now - last >= INTERVAL_NANOS) && seen.lastLogged.compareAndSet(last, now)) {
			long left = seen.leftOut.getAndSet(0);
			log.warn(
					"Writes are retried and the listener pauses, nothing is dead-lettered, while Redis replies an error "
							+ "not known to be the record's fault (fix Redis, the proxy in front of it or the mapper){}: {}",
					left > 0 ? " (" + left + " more such replies in the last " + INTERVAL_SECONDS + " s)" : "", reply);
		}
		else {
			seen.leftOut.incrementAndGet();
		}
	}

	private static String kind(String reply) {
		String[] words = reply.split(" ", 3);
		String kind = words[0].equalsIgnoreCase("ERR") && words.length > 1 ? words[0] + " " + words[1] : words[0];
		return kind.toUpperCase(Locale.ROOT);
	}

	private static final class Kind {

		final AtomicLong lastLogged = new AtomicLong();

		final AtomicLong leftOut = new AtomicLong();

	}

}
