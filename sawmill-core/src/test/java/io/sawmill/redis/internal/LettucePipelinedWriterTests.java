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
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.testkit.RedisServerProcess;

/**
 * The writer against a real redis-server. Flushes and connections are counted on the
 * Netty channels of the writer's client, so "one flush per chunk" and "connections are
 * reused" are observed on the wire rather than inferred from timing.
 */
class LettucePipelinedWriterTests {

	private static final AtomicInteger flushes = new AtomicInteger();

	private static final AtomicInteger channels = new AtomicInteger();

	private static final AtomicInteger channelWrites = new AtomicInteger();

	private static RedisServerProcess redis;

	private static ClientResources resources;

	private static RedisClient writerClient;

	private static RedisClient readerClient;

	private static StatefulRedisConnection<String, String> readerConnection;

	private static RedisCommands<String, String> reader;

	private final List<LettucePipelinedWriter> writers = new ArrayList<>();

	private String prefix;

	@BeforeAll
	static void startRedis() {
		redis = RedisServerProcess.startNew();
		resources = ClientResources.builder().nettyCustomizer(new NettyCustomizer() {
			@Override
			public void afterChannelInitialized(Channel channel) {
				channels.incrementAndGet();
				channel.pipeline().addFirst("sawmill-test-flush-counter", new ChannelOutboundHandlerAdapter() {
					@Override
					public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
						channelWrites.incrementAndGet();
						super.write(ctx, msg, promise);
					}

					@Override
					public void flush(ChannelHandlerContext ctx) throws Exception {
						flushes.incrementAndGet();
						super.flush(ctx);
					}
				});
			}
		}).build();
		RedisURI uri = RedisURI.create(redis.host(), redis.port());
		writerClient = RedisClient.create(resources, uri);
		// as Sawmill's auto-configuration sets the client of Boot's connection factory
		writerClient.setOptions(ClientOptions.builder().useHashIndexQueue(false).build());
		readerClient = RedisClient.create(uri);
		readerConnection = readerClient.connect();
		reader = readerConnection.sync();
	}

	@AfterAll
	static void stopRedis() throws Exception {
		Teardown.close(readerConnection, readerClient, writerClient, resources, redis);
	}

	@BeforeEach
	void uniquePrefix() {
		prefix = "sawmill-test:" + UUID.randomUUID() + ":";
	}

	@AfterEach
	void closeWriters() {
		writers.forEach(LettucePipelinedWriter::close);
	}

	private LettucePipelinedWriter writer(int maxCommandsPerChunk, Duration timeout) {
		LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> writerClient,
				PipelineConfig.custom().maxCommandsPerChunk(maxCommandsPerChunk).timeout(timeout).build());
		writers.add(writer);
		return writer;
	}

	/** A writer whose connection for this thread is open and has done its handshake. */
	private LettucePipelinedWriter connectedWriter(int maxCommandsPerChunk) {
		LettucePipelinedWriter writer = writer(maxCommandsPerChunk, Duration.ofSeconds(10));
		writer.open(1);
		writer.ping();
		return writer;
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private List<RedisWrite> hashes(int count) {
		List<RedisWrite> writes = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			writes.add(RedisWrite.hset(prefix + i, Map.of("n", Integer.toString(i))));
		}
		return writes;
	}

	private long existing(int count) {
		String[] keys = new String[count];
		for (int i = 0; i < count; i++) {
			keys[i] = prefix + i;
		}
		return reader.exists(keys);
	}

	@Test
	void shouldWriteHashesExpiriesDeletesAndOtherCommands() {
		reader.set(prefix + "gone", "old");
		LettucePipelinedWriter writer = connectedWriter(1_000);

		PipelineResult result = writer
			.write(List.of(RedisWrite.hset(prefix + "user", Map.of("name", "Ann", "city", "Oslo")),
					RedisWrite.expire(utf8(prefix + "user"), Duration.ofSeconds(60)),
					RedisWrite.hset(prefix + "session", Map.of("id", "s")),
					RedisWrite.expire(utf8(prefix + "session"), Duration.ofMillis(1_500)),
					RedisWrite.del(utf8(prefix + "gone")),
					RedisWrite.command("SADD", utf8(prefix + "tags"), utf8("a"), utf8("b")),
					RedisWrite.command("zadd", utf8(prefix + "scores"), utf8("1.5"), utf8("ann")),
					RedisWrite.command("HINCRBY", utf8(prefix + "user"), utf8("visits"), utf8("3"))));

		assertThat(result.succeeded()).isTrue();
		assertThat(result.commands()).isEqualTo(8);
		assertThat(result.chunks()).isEqualTo(1);
		assertThat(reader.hgetall(prefix + "user")).containsOnly(Map.entry("name", "Ann"), Map.entry("city", "Oslo"),
				Map.entry("visits", "3"));
		assertThat(reader.ttl(prefix + "user")).isBetween(1L, 60L);
		assertThat(reader.pttl(prefix + "session")).isBetween(1L, 1_500L);
		assertThat(reader.exists(prefix + "gone")).isZero();
		assertThat(reader.smembers(prefix + "tags")).containsExactlyInAnyOrder("a", "b");
		assertThat(reader.zscore(prefix + "scores", "ann")).isEqualTo(1.5);
	}

	@Test
	void shouldApplyWritesInListOrder() {
		LettucePipelinedWriter writer = connectedWriter(2);
		String key = prefix + "k";

		PipelineResult result = writer.write(List.of(RedisWrite.hset(key, Map.of("v", "1")), RedisWrite.del(utf8(key)),
				RedisWrite.hset(key, Map.of("v", "2")), RedisWrite.hset(key, Map.of("w", "3")),
				RedisWrite.del(utf8(key)), RedisWrite.hset(key, Map.of("v", "4"))));

		assertThat(result.succeeded()).isTrue();
		assertThat(result.chunks()).isEqualTo(3);
		assertThat(reader.hgetall(key)).containsOnly(Map.entry("v", "4"));
	}

	@Test
	void shouldFlushOncePerChunk() {
		LettucePipelinedWriter writer = connectedWriter(1_000);
		int before = flushes.get();

		PipelineResult result = writer.write(hashes(5_000));

		assertThat(flushes.get() - before).isEqualTo(5);
		assertThat(result.chunks()).isEqualTo(5);
		assertThat(result.succeeded()).isTrue();
		assertThat(existing(5_000)).isEqualTo(5_000);
	}

	@Test
	void shouldWriteEachChunkToTheChannelAsOneMessage() {
		// Fails when a Lettuce upgrade hides the endpoint's channel: the writer would
		// then fall back to one channel write (and one event-loop task) per command.
		assertThat(EndpointChannel.available()).isTrue();
		LettucePipelinedWriter writer = connectedWriter(1_000);
		int before = channelWrites.get();

		PipelineResult result = writer.write(hashes(2_500));

		assertThat(result.succeeded()).isTrue();
		assertThat(channelWrites.get() - before).isEqualTo(3);
		assertThat(existing(2_500)).isEqualTo(2_500);
	}

	@Test
	void shouldFlushLastPartialChunkOnce() {
		LettucePipelinedWriter writer = connectedWriter(1_000);
		int before = flushes.get();

		PipelineResult result = writer.write(hashes(2_500));

		assertThat(flushes.get() - before).isEqualTo(3);
		assertThat(result.chunks()).isEqualTo(3);
		assertThat(existing(2_500)).isEqualTo(2_500);
	}

	@Test
	void shouldFlushWholeBatchOnceWhenItFitsInOneChunk() {
		LettucePipelinedWriter writer = connectedWriter(5_000);
		int before = flushes.get();

		PipelineResult result = writer.write(hashes(5_000));

		assertThat(flushes.get() - before).isEqualTo(1);
		assertThat(result.chunks()).isEqualTo(1);
		assertThat(existing(5_000)).isEqualTo(5_000);
	}

	@Test
	void shouldTimeTheRoundTripToTheArrivalOfTheLastReplyNotToTheAwait() {
		LettucePipelinedWriter writer = connectedWriter(1_000);
		long beforeSend = System.nanoTime();

		RedisBatchWriter.Sent sent = writer.send(hashes(2_500));
		// the PING goes out on the same connection after the batch, so its reply comes
		// after all of the batch's
		writer.ping();
		long repliesArrived = System.nanoTime();
		PipelineResult result = sent.await();

		assertThat(result.succeeded()).isTrue();
		assertThat(sent.lastReplyNanos()).isBetween(beforeSend, repliesArrived);
	}

	@Test
	void shouldNeitherFlushNorConnectForEmptyBatch() {
		LettucePipelinedWriter writer = writer(1_000, Duration.ofSeconds(10));
		int flushesBefore = flushes.get();
		int channelsBefore = channels.get();

		PipelineResult result = writer.write(List.of());

		assertThat(result.succeeded()).isTrue();
		assertThat(result.commands()).isZero();
		assertThat(result.chunks()).isZero();
		assertThat(flushes.get()).isEqualTo(flushesBefore);
		assertThat(channels.get()).isEqualTo(channelsBefore);
	}

	@Test
	void shouldReuseItsConnectionForEveryBatch() {
		int before = channels.get();
		LettucePipelinedWriter writer = connectedWriter(1_000);

		for (int batch = 0; batch < 5; batch++) {
			assertThat(writer.write(hashes(100)).succeeded()).isTrue();
		}

		assertThat(channels.get() - before).isEqualTo(1);
	}

	@Test
	void shouldOpenConnectionsUpFrontAndGiveEachThreadItsOwn() throws Exception {
		int before = channels.get();
		LettucePipelinedWriter writer = writer(1_000, Duration.ofSeconds(10));
		writer.open(2);
		assertThat(channels.get() - before).isEqualTo(2);
		CountDownLatch otherThreadWrote = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);

		CompletableFuture<PipelineResult> other = CompletableFuture.supplyAsync(() -> {
			PipelineResult result = writer.write(List.of(RedisWrite.hset(prefix + "other", Map.of("t", "other"))));
			otherThreadWrote.countDown();
			try {
				release.await(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return result;
		});
		assertThat(otherThreadWrote.await(10, TimeUnit.SECONDS)).isTrue();
		PipelineResult mine = writer.write(List.of(RedisWrite.hset(prefix + "mine", Map.of("t", "mine"))));
		release.countDown();

		assertThat(mine.succeeded()).isTrue();
		assertThat(other.get(10, TimeUnit.SECONDS).succeeded()).isTrue();
		assertThat(channels.get() - before).isEqualTo(2);
		assertThat(reader.hget(prefix + "other", "t")).isEqualTo("other");
		assertThat(reader.hget(prefix + "mine", "t")).isEqualTo("mine");
	}

	@Test
	void shouldLeaveTheConnectionsOpenedUpFrontToTheWritingThreadsAfterAPing() throws Exception {
		int before = channels.get();
		LettucePipelinedWriter writer = writer(1_000, Duration.ofSeconds(10));
		writer.open(1);

		// As at start-up: open one connection per listener thread, then PING from the
		// main thread.
		writer.ping();
		PipelineResult result = CompletableFuture
			.supplyAsync(() -> writer.write(List.of(RedisWrite.hset(prefix + "k", Map.of("f", "v")))))
			.get(10, TimeUnit.SECONDS);

		assertThat(result.succeeded()).isTrue();
		assertThat(channels.get() - before).as("the listener thread connected on the data path").isEqualTo(1);
	}

	@Test
	void shouldReportErrorReplyAtItsIndexWhileOtherCommandsSucceed() {
		reader.set(prefix + "string", "not a hash");
		LettucePipelinedWriter writer = connectedWriter(1_000);
		int channelsBefore = channels.get();
		RedisWrite wrongType = RedisWrite.hset(prefix + "string", Map.of("f", "v"));

		PipelineResult result = writer.write(List.of(RedisWrite.hset(prefix + "a", Map.of("f", "1")),
				RedisWrite.command("SADD", utf8(prefix + "set"), utf8("m")), wrongType,
				RedisWrite.hset(prefix + "b", Map.of("f", "2"))));

		assertThat(result.succeeded()).isFalse();
		assertThat(result.commands()).isEqualTo(4);
		assertThat(result.failures()).singleElement().satisfies(failure -> {
			assertThat(failure.index()).isEqualTo(2);
			assertThat(failure.write()).isSameAs(wrongType);
			assertThat(failure.cause()).isInstanceOf(RedisCommandExecutionException.class)
				.hasMessageContaining("WRONGTYPE");
		});
		assertThat(reader.hget(prefix + "a", "f")).isEqualTo("1");
		assertThat(reader.sismember(prefix + "set", "m")).isTrue();
		assertThat(reader.hget(prefix + "b", "f")).isEqualTo("2");
		assertThat(reader.get(prefix + "string")).isEqualTo("not a hash");

		assertThat(writer.write(List.of(RedisWrite.hset(prefix + "c", Map.of("f", "3")))).succeeded()).isTrue();
		assertThat(channels.get()).as("an error reply leaves the connection usable").isEqualTo(channelsBefore);
	}

	@Test
	void shouldReportFailuresWhileRedisIsDownAndWriteAgainOnceItIsBack() {
		LettucePipelinedWriter writer = writer(1_000, Duration.ofMillis(500));
		writer.open(1);
		writer.ping();
		try {
			redis.kill();

			PipelineResult whileDown = writer.write(hashes(10));
			PipelineResult stillDown = writer.write(hashes(10));

			assertThat(whileDown.succeeded()).isFalse();
			assertThat(whileDown.failures()).extracting(PipelineResult.Failure::index)
				.containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
			assertThat(stillDown.succeeded()).isFalse();
			assertThat(stillDown.failures()).hasSize(10);
		}
		finally {
			redis.start();
		}
		int channelsBefore = channels.get();

		PipelineResult afterRestart = writer.write(hashes(10));

		assertThat(afterRestart.succeeded()).isTrue();
		assertThat(existing(10)).isEqualTo(10);
		assertThat(channels.get() - channelsBefore).as("a new connection replaced the broken one").isEqualTo(1);
	}

	@Test
	void shouldAccountForEveryCommandOfTwoBatchesInFlightWhenRedisDiesUnderThem() {
		// tens of thousands of commands awaiting replies: those whose writes fail are
		// taken off the connection's queue one by one, by a scan of that queue now that
		// it has no hash index
		LettucePipelinedWriter writer = writer(2_000, Duration.ofSeconds(2));
		writer.open(1);
		writer.ping();
		PipelineResult first;
		PipelineResult second;
		try {
			RedisBatchWriter.Sent firstSent = writer.send(hashes(50_000));
			RedisBatchWriter.Sent secondSent = writer.send(hashes(50_000));
			redis.kill();
			first = firstSent.await();
			second = secondSent.await();
		}
		finally {
			redis.start();
		}

		for (PipelineResult result : List.of(first, second)) {
			assertThat(result.commands()).isEqualTo(50_000);
			Set<Integer> failed = result.failures()
				.stream()
				.map(PipelineResult.Failure::index)
				.collect(Collectors.toSet());
			assertThat(failed).as("each failure names one command of the batch, once")
				.hasSize(result.failures().size())
				.allSatisfy(index -> assertThat(index).isBetween(0, 49_999));
		}
		assertThat(second.succeeded()).as("the second batch cannot all have been applied before Redis died").isFalse();
		PipelineResult afterRestart = writer.write(hashes(10));
		assertThat(afterRestart.succeeded()).isTrue();
		assertThat(existing(10)).isEqualTo(10);
	}

	@Test
	void shouldFailPingWhileRedisIsDownAndAnswerAgainOnceItIsBack() {
		LettucePipelinedWriter writer = writer(1_000, Duration.ofMillis(500));
		writer.open(1);
		writer.ping();
		try {
			redis.kill();

			assertThatIllegalStateException().isThrownBy(writer::ping)
				.withMessageContaining("Redis did not answer PING");
		}
		finally {
			redis.start();
		}
		// The connection reconnects in the background, with a backoff.
		await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(writer::ping);
	}

}
