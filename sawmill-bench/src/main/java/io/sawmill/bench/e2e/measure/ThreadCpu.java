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
package io.sawmill.bench.e2e.measure;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * This JVM's CPU time by kind of thread, read from {@code /proc/self/task} (Linux; empty
 * elsewhere), so that a drain's CPU per record can be split into what the listener
 * thread, Redis I/O and garbage collection cost: where two paths differ (the cluster and
 * the single server, say), the split tells code from collection. Threads are told apart
 * by their Linux names, which are cut to 15 characters. A thread that ends between two
 * readings takes the CPU time it used in between with it; a drain's consumer keeps its
 * threads for the whole drain.
 */
final class ThreadCpu {

	/** What a thread does, by its name's beginning. */
	enum Kind {

		/**
		 * Spring Kafka's listener threads, and the template loop's: poll, map, encode,
		 * send.
		 */
		LISTENER("listener", "sawmillListener", "template-loop"),

		/** Lettuce's Netty event loops: writes to and replies from Redis. */
		REDIS_IO("Redis I/O", "lettuce-nioEven", "lettuce-epollEv"),

		/**
		 * HotSpot's collector threads (G1's and the serial/parallel collectors' workers).
		 */
		GC("GC", "GC Thread#", "G1 "),

		/**
		 * Every other thread (the Kafka client's, HotSpot's own, the benchmark's): the
		 * consumer's rest.
		 */
		REST("rest");

		private final String label;

		private final List<String> prefixes;

		Kind(String label, String... prefixes) {
			this.label = label;
			this.prefixes = List.of(prefixes);
		}

		static Kind of(String threadName) {
			for (Kind kind : values()) {
				if (kind.prefixes.stream().anyMatch(threadName::startsWith)) {
					return kind;
				}
			}
			return REST;
		}

	}

	/** The threads alive at this reading, by Linux thread id. */
	private final Map<Long, ConsumerCpu.Task> tasks;

	private ThreadCpu(Map<Long, ConsumerCpu.Task> tasks) {
		this.tasks = tasks;
	}

	/** Every thread's CPU time now; none where {@code /proc} cannot tell. */
	static ThreadCpu now() {
		return new ThreadCpu(ConsumerCpu.tasks());
	}

	/**
	 * The CPU time each kind of thread used from {@code earlier} to this reading, of the
	 * threads alive at this one (a thread started in between counts from 0).
	 */
	Map<Kind, Long> since(ThreadCpu earlier) {
		Map<Kind, Long> used = new EnumMap<>(Kind.class);
		tasks.forEach((tid, task) -> {
			ConsumerCpu.Task before = earlier.tasks.get(tid);
			used.merge(Kind.of(task.name()), Math.max(0, task.nanos() - (before == null ? 0 : before.nanos())),
					Long::sum);
		});
		return used;
	}

	/**
	 * A drain's CPU per record split by kind, e.g. "listener 1.36, Redis I/O 0.68, GC
	 * 0.32, rest 0.12 µs": the kinds' shares of {@code total} (the consumer's CPU per
	 * record, which leaves out the JIT compiler's and the benchmark's own threads), the
	 * rest being what the listed kinds do not explain. Empty when nothing was read.
	 * @param used each kind's CPU nanoseconds over the drain ({@link #since})
	 */
	static String split(Map<Kind, Long> used, long records, double totalNanosPerRecord) {
		if (used.isEmpty() || records <= 0 || Double.isNaN(totalNanosPerRecord)) {
			return "";
		}
		StringBuilder text = new StringBuilder();
		double listed = 0;
		for (Kind kind : List.of(Kind.LISTENER, Kind.REDIS_IO, Kind.GC)) {
			double perRecord = used.getOrDefault(kind, 0L) / (double) records;
			listed += perRecord;
			text.append(String.format(Locale.ROOT, "%s %.2f, ", kind.label, perRecord / 1000));
		}
		return text
			.append(String.format(Locale.ROOT, "%s %.2f µs", Kind.REST.label,
					Math.max(0, totalNanosPerRecord - listed) / 1000))
			.toString();
	}

}
