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
package io.sawmill.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.redis.internal.RedisBatchWriter;
import io.sawmill.testkit.RedisSentinelProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * What {@code sawmill.pipeline.wait-for-replicas=1} costs the writer: the same
 * 1,000-record batches (HSET + EXPIRE) to a real master with one real replica on
 * loopback, with and without Redis {@code WAIT} after each batch, in alternating rounds.
 * Batches go out as the listener sends them while the consumer is behind: the next batch
 * is sent before the previous one is awaited.
 * <p>
 * Usage:
 * {@code java [-Dbatches=500 -Drounds=3 -Dbatch=1000] -cp sawmill-bench/target/sawmill-bench.jar
 * io.sawmill.bench.ReplicaWaitCost}; under a minute. Prints, per round and setting, the
 * batch's round trip (send to its last reply, plus the time WAIT took) at P50/P99 and
 * records/s.
 */
public final class ReplicaWaitCost {

	private static final int WARM_UP_BATCHES = 200;

	private ReplicaWaitCost() {
	}

	public static void main(String[] args) {
		int batches = Integer.getInteger("batches", 500);
		int rounds = Integer.getInteger("rounds", 3);
		int batchSize = Integer.getInteger("batch", 1000);
		List<RedisWrite> batch = SampleBatch.of(batchSize);
		try (RedisSentinelProcess redis = RedisSentinelProcess.startNew()) {
			RedisServerProcess master = redis.master();
			RedisClient client = RedisClient.create(RedisURI.create(master.host(), master.port()));
			client.setOptions(ClientOptions.builder().useHashIndexQueue(false).build());
			try {
				System.out.printf(Locale.ROOT,
						"master 127.0.0.1:%d with one replica; %d batches of %d records per row, "
								+ "after %d unmeasured%n",
						master.port(), batches, batchSize, WARM_UP_BATCHES);
				System.out.printf(Locale.ROOT, "%-5s %-18s %10s %10s %12s%n", "round", "wait-for-replicas", "P50 ms",
						"P99 ms", "records/s");
				for (int round = 1; round <= rounds; round++) {
					for (int replicas : new int[] { 0, 1 }) {
						run(round, client, replicas, batch, batches);
					}
				}
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	private static void run(int round, RedisClient client, int replicas, List<RedisWrite> batch, int batches) {
		PipelineConfig config = PipelineConfig.custom().waitForReplicas(replicas).build();
		try (LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> client, config)) {
			drain(writer, batch, WARM_UP_BATCHES, null);
			long[] nanos = new long[batches];
			long started = System.nanoTime();
			drain(writer, batch, batches, nanos);
			long elapsed = System.nanoTime() - started;
			Arrays.sort(nanos);
			System.out.printf(Locale.ROOT, "%-5d %-18d %10.2f %10.2f %,12.0f%n", round, replicas,
					nanos[batches / 2] / 1e6, nanos[(int) Math.ceil(batches * 0.99) - 1] / 1e6,
					batches * (batch.size() / 2.0) / (elapsed / 1e9));
		}
	}

	/**
	 * Sends each batch before it awaits the one before, as the listener does while
	 * behind.
	 */
	private static void drain(LettucePipelinedWriter writer, List<RedisWrite> batch, int batches, long[] nanos) {
		RedisBatchWriter.Sent previous = null;
		long previousSent = 0;
		for (int i = 0; i <= batches; i++) {
			long sentAt = System.nanoTime();
			RedisBatchWriter.Sent next = i < batches ? writer.send(batch) : null;
			if (previous != null) {
				if (!previous.await().succeeded()) {
					throw new IllegalStateException("a batch was not fully acknowledged");
				}
				if (nanos != null) {
					nanos[i - 1] = previous.lastReplyNanos() - previousSent;
				}
			}
			previous = next;
			previousSent = sentAt;
		}
	}

}
