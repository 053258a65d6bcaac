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
package io.sawmill.testkit;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What a {@link LatencyProxy} forwarded, and how late each chunk went out against the
 * delay. Thread-safe: every proxy thread records here.
 */
final class ProxyCounters {

	/**
	 * Lateness histogram: one-microsecond buckets up to this many; later chunks land in
	 * the last one.
	 */
	private static final int LATENESS_BUCKETS = 10_000;

	private final AtomicLong bytesToTarget = new AtomicLong();

	private final AtomicLong bytesFromTarget = new AtomicLong();

	private final AtomicLong connections = new AtomicLong();

	private final AtomicLong chunks = new AtomicLong();

	private final AtomicLong latenessTotalNanos = new AtomicLong();

	private final AtomicLong latenessMaxNanos = new AtomicLong();

	private final AtomicLongArray latenessMicros = new AtomicLongArray(LATENESS_BUCKETS + 1);

	void connected() {
		connections.incrementAndGet();
	}

	/** Bytes forwarded client → target. */
	AtomicLong bytesToTarget() {
		return bytesToTarget;
	}

	/** Bytes forwarded target → client. */
	AtomicLong bytesFromTarget() {
		return bytesFromTarget;
	}

	/** One chunk forwarded, {@code latenessNanos} after it was due. */
	void record(long latenessNanos) {
		chunks.incrementAndGet();
		latenessTotalNanos.addAndGet(latenessNanos);
		latenessMaxNanos.accumulateAndGet(latenessNanos, Math::max);
		latenessMicros.incrementAndGet((int) Math.min(LATENESS_BUCKETS, latenessNanos / 1000));
	}

	/**
	 * The counts so far; lateness rounded up to the microsecond at the median and the
	 * 99th percentile.
	 */
	Counts counts() {
		long count = chunks.get();
		long p50 = 0;
		long p99 = 0;
		long seen = 0;
		for (int i = 0; i <= LATENESS_BUCKETS && count > 0; i++) {
			seen += latenessMicros.get(i);
			if (p50 == 0 && seen >= Math.ceil(count * 0.5)) {
				p50 = i + 1;
			}
			if (seen >= Math.ceil(count * 0.99)) {
				p99 = i + 1;
				break;
			}
		}
		return new Counts(connections.get(), bytesToTarget.get(), bytesFromTarget.get(), count,
				Duration.ofNanos(count == 0 ? 0 : latenessTotalNanos.get() / count), Duration.ofNanos(p50 * 1000),
				Duration.ofNanos(p99 * 1000), Duration.ofNanos(latenessMaxNanos.get()));
	}

	void reset() {
		bytesToTarget.set(0);
		bytesFromTarget.set(0);
		connections.set(0);
		chunks.set(0);
		latenessTotalNanos.set(0);
		latenessMaxNanos.set(0);
		for (int i = 0; i <= LATENESS_BUCKETS; i++) {
			latenessMicros.set(i, 0);
		}
	}

	/** What {@link #counts()} read, in {@link LatencyProxy.Stats}' terms. */
	record Counts(long connections, long bytesToTarget, long bytesFromTarget, long chunks, Duration meanLateness,
			Duration p50Lateness, Duration p99Lateness, Duration maxLateness) {
	}

}
