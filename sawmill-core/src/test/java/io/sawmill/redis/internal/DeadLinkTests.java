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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.testkit.RedisClusterProcess;
import io.sawmill.testkit.RedisServerProcess;

/**
 * A batch whose replies cannot arrive, because Redis died under it, fails at once as
 * transient, not after {@code sawmill.pipeline.timeout}: the timeout here is five
 * minutes, and each batch must complete well within one (an outcome, not a speed target).
 * Redis is killed while it holds the batch's commands unanswered
 * ({@code CLIENT PAUSE … WRITE}), so none of them can have succeeded.
 */
class DeadLinkTests {

	private static final PipelineConfig FIVE_MINUTE_TIMEOUT = PipelineConfig.custom()
		.timeout(Duration.ofMinutes(5))
		.build();

	private static final Duration WELL_WITHIN_THE_TIMEOUT = Duration.ofSeconds(60);

	/** One thread sends and awaits every batch of a test, as a listener thread does. */
	private final ExecutorService listenerThread = Executors.newSingleThreadExecutor();

	private final Deque<AutoCloseable> closing = new ArrayDeque<>();

	private final String prefix = "sawmill-dead-link:" + UUID.randomUUID() + ":";

	@AfterEach
	void close() throws Exception {
		listenerThread.shutdownNow();
		for (AutoCloseable closeable : closing) {
			closeable.close();
		}
	}

	@Test
	void shouldFailTheBatchInFlightAtOnceAsTransientWhenStandaloneRedisIsKilled() throws Exception {
		RedisServerProcess redis = closing(RedisServerProcess.startNew());
		RedisClient client = closing(RedisClient.create(RedisURI.create(redis.host(), redis.port())));
		LettucePipelinedWriter writer = closing(opened(client));
		List<RedisWrite> batch = hashes(0, 1_000);
		assertThat(redis.command("CLIENT", "PAUSE", "600000", "WRITE")).isEqualTo("+OK");

		CompletableFuture<PipelineResult> result = sendThen(writer, batch, redis::kill);

		assertFailedAtOnceAsTransient(result, batch.size());
		PipelineResult whileDown = onListenerThread(() -> writer.write(hashes(0, 10)));
		assertThat(whileDown.failures()).hasSize(10)
			.allSatisfy(failure -> assertThat(FailureClass.of(failure.cause())).isEqualTo(FailureClass.TRANSIENT));
	}

	@Test
	void shouldFailTheCommandsOfAKilledClusterMasterAtOnceAndWriteThemToTheReplicaThatTookOver() throws Exception {
		RedisClusterProcess cluster = closing(RedisClusterProcess.startNew(1));
		RedisClusterClient client = closing(RedisClusterClient
			.create(cluster.ports().stream().map(port -> RedisURI.create(cluster.host(), port)).toList()));
		LettucePipelinedWriter writer = closing(opened(client));
		List<RedisWrite> batch = hashes(0, 300);
		int victim = client.getPartitions().getMasterBySlot(SlotHash.getSlot(batch.get(0).key())).getUri().getPort();
		List<Integer> onVictim = new ArrayList<>();
		for (int i = 0; i < batch.size(); i++) {
			if (client.getPartitions()
				.getMasterBySlot(SlotHash.getSlot(batch.get(i).key()))
				.getUri()
				.getPort() == victim) {
				onVictim.add(i);
			}
		}
		assertThat(cluster.command(victim, "CLIENT", "PAUSE", "600000", "WRITE")).isEqualTo("OK");

		CompletableFuture<PipelineResult> result = sendThen(writer, batch, () -> cluster.kill(victim));

		PipelineResult failed = assertFailedAtOnceAsTransient(result, onVictim.size());
		assertThat(failed.failures()).extracting(PipelineResult.Failure::index)
			.as("only the commands routed to the killed master fail")
			.containsExactlyElementsOf(onVictim);
		List<RedisWrite> again = failed.failures().stream().map(PipelineResult.Failure::write).toList();
		await("the replica takes the killed master's slots over and the failed writes succeed there")
			.atMost(WELL_WITHIN_THE_TIMEOUT)
			.pollInterval(Duration.ofMillis(200))
			.untilAsserted(() -> assertThat(onListenerThread(() -> writer.write(again)).failures()).isEmpty());
		try (StatefulRedisClusterConnection<String, String> reader = client.connect()) {
			for (int i = 0; i < batch.size(); i++) {
				assertThat(reader.sync().hget(prefix + i, "n")).as("key %d", i).isEqualTo(Integer.toString(i));
			}
		}
	}

	private LettucePipelinedWriter opened(AbstractRedisClient client) throws Exception {
		LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> client, FIVE_MINUTE_TIMEOUT);
		onListenerThread(() -> {
			writer.open(1);
			writer.ping();
			return null;
		});
		return writer;
	}

	/**
	 * Sends the batch on the listener thread, runs {@code fault} once it is on the wire,
	 * then awaits it there.
	 */
	private CompletableFuture<PipelineResult> sendThen(RedisBatchWriter writer, List<RedisWrite> batch, Runnable fault)
			throws InterruptedException {
		CountDownLatch sent = new CountDownLatch(1);
		CompletableFuture<PipelineResult> result = CompletableFuture.supplyAsync(() -> {
			RedisBatchWriter.Sent onTheWire = writer.send(batch);
			sent.countDown();
			return onTheWire.await();
		}, listenerThread);
		assertThat(sent.await(1, TimeUnit.MINUTES)).isTrue();
		fault.run();
		return result;
	}

	private static PipelineResult assertFailedAtOnceAsTransient(CompletableFuture<PipelineResult> result, int failures)
			throws Exception {
		await("the batch completes, long before the five-minute timeout").atMost(WELL_WITHIN_THE_TIMEOUT)
			.until(result::isDone);
		PipelineResult failed = result.get();
		assertThat(failed.failures()).hasSize(failures).allSatisfy(failure -> {
			// failed by the writer as its link is down, or by Lettuce as the connection
			// was reset: not timed out
			assertThat(failure.cause()).isNotInstanceOf(RedisCommandTimeoutException.class);
			assertThat(FailureClass.of(failure.cause())).isEqualTo(FailureClass.TRANSIENT);
		});
		return failed;
	}

	private <T> T onListenerThread(Supplier<T> call) throws Exception {
		return CompletableFuture.supplyAsync(call, listenerThread).get(2, TimeUnit.MINUTES);
	}

	private List<RedisWrite> hashes(int from, int to) {
		List<RedisWrite> writes = new ArrayList<>(to - from);
		for (int i = from; i < to; i++) {
			writes.add(RedisWrite.hset((prefix + i).getBytes(StandardCharsets.UTF_8), Map
				.of("n".getBytes(StandardCharsets.UTF_8), Integer.toString(i).getBytes(StandardCharsets.UTF_8))));
		}
		return writes;
	}

	private <T> T closing(T resource) {
		closing.addFirst(resource instanceof AbstractRedisClient client ? (AutoCloseable) client::shutdown
				: (AutoCloseable) resource);
		return resource;
	}

}
