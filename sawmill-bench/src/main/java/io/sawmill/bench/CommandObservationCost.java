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

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.tracing.MicrometerTracing;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.testkit.RedisClusterProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * What Lettuce's per-command observations cost Sawmill's writer: the client as Boot
 * builds it when an {@code ObservationRegistry} exists
 * ({@code LettuceObservationAutoConfiguration}: a {@link MicrometerTracing} whose
 * observations become timers) against the client with tracing off (what Sawmill's
 * auto-configuration leaves, {@code sawmill.pipeline.command-observations=false}). Both
 * the cluster path (a three-master Redis Cluster of real redis-servers; each command goes
 * through Lettuce's API) and the standalone path (one redis-server; whole chunks go to
 * the channel) write the same 1,000-record batches of HSET + EXPIRE, in alternating
 * rounds.
 * <p>
 * Usage:
 * {@code java [-Dbatches=500 -Drounds=3 -Dbatch=1000] -cp sawmill-bench/target/sawmill-bench.jar
 * io.sawmill.bench.CommandObservationCost}; about a minute. Prints, per round, path and
 * setting, the write's P50/P99 per batch, records/s, the JVM's CPU time per batch (all
 * threads: the writing thread and Lettuce's event loop) and how many commands per batch
 * Lettuce observed.
 */
public final class CommandObservationCost {

	private static final int WARM_UP_BATCHES = 200;

	private CommandObservationCost() {
	}

	public static void main(String[] args) throws Exception {
		int batches = Integer.getInteger("batches", 500);
		int rounds = Integer.getInteger("rounds", 3);
		int batchSize = Integer.getInteger("batch", 1000);
		List<RedisWrite> batch = SampleBatch.of(batchSize);
		try (RedisClusterProcess cluster = RedisClusterProcess.startNew();
				RedisServerProcess standalone = RedisServerProcess.startNew()) {
			List<RedisURI> seeds = cluster.ports().stream().map(port -> RedisURI.create(cluster.host(), port)).toList();
			RedisURI single = RedisURI.create(standalone.host(), standalone.port());
			System.out.printf(Locale.ROOT, "%d batches of %d records (HSET + EXPIRE) per row, after %d unmeasured%n",
					batches, batchSize, WARM_UP_BATCHES);
			System.out.printf(Locale.ROOT, "%-5s %-10s %-22s %10s %10s %12s %14s %14s%n", "round", "path",
					"command observations", "P50 ms", "P99 ms", "records/s", "CPU ms/batch", "observed/batch");
			for (int round = 1; round <= rounds; round++) {
				for (boolean observed : new boolean[] { true, false }) {
					run(round, "cluster", observed, resources -> RedisClusterClient.create(resources, seeds), batch,
							batches);
					run(round, "standalone", observed, resources -> RedisClient.create(resources, single), batch,
							batches);
				}
			}
		}
	}

	private static void run(int round, String path, boolean observed,
			Function<ClientResources, AbstractRedisClient> clientOf, List<RedisWrite> batch, int batches) {
		DefaultClientResources.Builder builder = DefaultClientResources.builder();
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		if (observed) {
			ObservationRegistry observations = ObservationRegistry.create();
			observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
			builder.tracing(new MicrometerTracing(observations, "Redis"));
		}
		ClientResources resources = builder.build();
		AbstractRedisClient client = clientOf.apply(resources);
		com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
			.getOperatingSystemMXBean();
		try (LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> client, PipelineConfig.ofDefaults())) {
			for (int i = 0; i < WARM_UP_BATCHES; i++) {
				write(writer, batch);
			}
			long[] nanos = new long[batches];
			long observedBefore = observedCommands(meters);
			long cpuBefore = os.getProcessCpuTime();
			long started = System.nanoTime();
			for (int i = 0; i < batches; i++) {
				long t = System.nanoTime();
				write(writer, batch);
				nanos[i] = System.nanoTime() - t;
			}
			long elapsed = System.nanoTime() - started;
			long cpu = os.getProcessCpuTime() - cpuBefore;
			long observedCommands = observedCommands(meters) - observedBefore;
			Arrays.sort(nanos);
			System.out.printf(Locale.ROOT, "%-5d %-10s %-22s %10.2f %10.2f %,12.0f %14.2f %,14.1f%n", round, path,
					observed ? "on (Boot's default)" : "off (Sawmill's)", nanos[batches / 2] / 1e6,
					nanos[(int) Math.ceil(batches * 0.99) - 1] / 1e6, batches * (batch.size() / 2.0) / (elapsed / 1e9),
					cpu / 1e6 / batches, observedCommands / (double) batches);
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			resources.shutdown();
		}
	}

	/**
	 * Commands Lettuce observed so far: its timers are tagged {@code db.system=redis}.
	 */
	private static long observedCommands(SimpleMeterRegistry meters) {
		return meters.getMeters()
			.stream()
			.filter(Timer.class::isInstance)
			.map(Timer.class::cast)
			.filter(timer -> "redis".equals(timer.getId().getTag("db.system")))
			.mapToLong(Timer::count)
			.sum();
	}

	private static void write(LettucePipelinedWriter writer, List<RedisWrite> batch) {
		if (!writer.write(batch).succeeded()) {
			throw new IllegalStateException("a batch was not fully acknowledged");
		}
	}

}
