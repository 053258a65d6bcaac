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
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.ArrayOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.ProtocolVersion;
import io.sawmill.testkit.RedisServerProcess;

/**
 * Every row of {@link FailureClass}'s table, produced by a real redis-server and
 * classified as Lettuce reports it. MOVED, ASK and TRYAGAIN, which Lettuce follows while
 * slots move ({@code LettucePipelinedWriterReshardTests}), are not produced here; they
 * match by the same prefix rule as the outage replies that are.
 */
class FailureClassTests {

	private static RedisServerProcess redis;

	private static RedisClient client;

	@BeforeAll
	static void startRedis() {
		redis = RedisServerProcess.startNew("--busy-reply-threshold", "100");
		client = RedisClient.create();
	}

	@AfterAll
	static void stopRedis() throws Exception {
		client.shutdown();
		redis.close();
	}

	@Test
	void shouldDeadLetterOnlyTheRepliesARecordsOwnDataCauses() {
		assertReply(FailureClass.PERMANENT, "WRONGTYPE", List.of("SET", "s", "v"), List.of("HSET", "s", "f", "v"));
		assertReply(FailureClass.PERMANENT, "ERR value is not an integer or out of range", List.of("SET", "n", "abc"),
				List.of("INCR", "n"));
		assertReply(FailureClass.PERMANENT, "ERR value is not an integer or out of range",
				List.of("EXPIRE", "n", "soon"));
		assertReply(FailureClass.PERMANENT, "ERR value is out of range", List.of("SPOP", "set", "-1"));
		assertReply(FailureClass.PERMANENT, "ERR value is not a valid float", List.of("INCRBYFLOAT", "f", "abc"));
		assertReply(FailureClass.PERMANENT, "ERR hash value is not an integer", List.of("HSET", "h", "f", "abc"),
				List.of("HINCRBY", "h", "f", "1"));
		assertReply(FailureClass.PERMANENT, "ERR hash value is not a float", List.of("HINCRBYFLOAT", "h", "f", "1"));
		assertReply(FailureClass.PERMANENT, "ERR increment or decrement would overflow",
				List.of("SET", "big", Long.toString(Long.MAX_VALUE)), List.of("INCR", "big"));
		assertReply(FailureClass.PERMANENT, "ERR increment would produce NaN or Infinity",
				List.of("INCRBYFLOAT", "inf", "inf"));
		assertReply(FailureClass.PERMANENT, "ERR resulting score is not a number", List.of("ZADD", "z", "inf", "m"),
				List.of("ZINCRBY", "z", "-inf", "m"));
		assertReply(FailureClass.PERMANENT, "ERR invalid expire time", List.of("SET", "e", "v"),
				List.of("EXPIRE", "e", Long.toString(Long.MAX_VALUE)));
		assertReply(FailureClass.PERMANENT, "ERR string exceeds maximum allowed size",
				List.of("SETRANGE", "r", "536870912", "x"));
		assertReply(FailureClass.PERMANENT, "ERR offset is out of range", List.of("SETRANGE", "r", "-1", "x"));
		assertReply(FailureClass.PERMANENT, "ERR bit offset is not an integer or out of range",
				List.of("SETBIT", "b", "-1", "1"));
		assertReply(FailureClass.PERMANENT, "ERR bit is not an integer or out of range",
				List.of("SETBIT", "b", "0", "2"));
		assertReply(FailureClass.PERMANENT, "ERR index out of range", List.of("RPUSH", "l", "a"),
				List.of("LSET", "l", "5", "x"));
		assertReply(FailureClass.PERMANENT, "ERR no such key", List.of("LSET", "missing", "0", "x"));
		assertReply(FailureClass.PERMANENT, "ERR The ID specified in XADD is equal or smaller",
				List.of("XADD", "x", "5-0", "f", "v"), List.of("XADD", "x", "5-0", "f", "v"));
		assertReply(FailureClass.PERMANENT, "ERR Invalid stream ID", List.of("XADD", "x", "abc", "f", "v"));
	}

	@Test
	void shouldRetryRepliesWhereTheMapperAndTheServerDisagree() {
		assertReply(FailureClass.TRANSIENT, "ERR unknown command", List.of("NOSUCHCOMMAND", "k"));
		assertReply(FailureClass.TRANSIENT, "ERR wrong number of arguments", List.of("HSET", "h2", "f"));
		assertReply(FailureClass.TRANSIENT, "ERR syntax error", List.of("SET", "k", "v", "NX", "XX"));
		assertReply(FailureClass.TRANSIENT, "NOSCRIPT", List.of("EVALSHA", "f".repeat(40), "0"));
	}

	@Test
	void shouldLeaveOnlyRepliesThatMayBeARecordsOwnFaultToBlameByElimination() {
		assertThat(FailureClass
			.blamable(new RedisCommandExecutionException("ERR wrong number of arguments for 'hset' command"))).isTrue();
		assertThat(FailureClass.blamable(new RedisCommandExecutionException("ERR a module's own reply"))).isTrue();
		assertThat(FailureClass.blamable(new RedisCommandExecutionException("WRONGTYPE Operation"))).isFalse();
		assertThat(FailureClass.blamable(new RedisCommandExecutionException("MISCONF cannot persist"))).isFalse();
		assertThat(FailureClass.blamable(new RedisCommandExecutionException("NOPERM No permissions"))).isFalse();
		assertThat(FailureClass.blamable(new io.lettuce.core.RedisConnectionException("reset"))).isFalse();
	}

	@Test
	void shouldRetryACommandRenamedAwayAsUnknown() {
		try (RedisServerProcess renamed = RedisServerProcess.startNew("--rename-command", "EXPIRE", "")) {
			assertReply(renamed, FailureClass.TRANSIENT, "ERR unknown command", List.of("EXPIRE", "k", "10"));
		}
	}

	@Test
	void shouldRetryWhenRedisCannotPersist() throws Exception {
		Path dir = Files.createTempDirectory("sawmill-misconf-");
		try (RedisServerProcess persisting = RedisServerProcess.startNew("--save", "3600 1",
				"--stop-writes-on-bgsave-error", "yes", "--enable-protected-configs", "yes")) {
			run(persisting, List.of("CONFIG", "SET", "dir", dir.toString()));
			// the snapshot cannot be written in a directory that is gone
			Files.delete(dir);
			run(persisting, List.of("BGSAVE"));
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(
						() -> assertReply(persisting, FailureClass.TRANSIENT, "MISCONF", List.of("SET", "k", "v")));
		}
	}

	@Test
	void shouldRetryOutagesAndLimits() {
		assertThat(
				FailureClass.of(replyTo(redis, List.of("CONFIG", "SET", "maxmemory", "1"), List.of("SET", "k", "v"))))
			.isEqualTo(FailureClass.TRANSIENT);
		run(redis, List.of("CONFIG", "SET", "maxmemory", "0"));
		assertReply(FailureClass.TRANSIENT, "NOREPLICAS", List.of("CONFIG", "SET", "min-replicas-to-write", "1"),
				List.of("SET", "k", "v"));
		run(redis, List.of("CONFIG", "SET", "min-replicas-to-write", "0"));
		assertReply(FailureClass.TRANSIENT, "NOPERM",
				List.of("ACL", "SETUSER", "narrow", "on", ">pw", "~allowed:*", "+@all"),
				List.of("AUTH", "narrow", "pw"), List.of("SET", "other", "v"));
		assertReply(FailureClass.TRANSIENT, "WRONGPASS", List.of("AUTH", "narrow", "wrong"));
	}

	@Test
	void shouldRetryWhileAScriptKeepsRedisBusy() {
		CompletableFuture<?> busy = CompletableFuture
			.runAsync(() -> catchThrowable(() -> run(redis, List.of("EVAL", "while true do end", "0"))));
		try {
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertReply(FailureClass.TRANSIENT, "BUSY", List.of("SET", "k", "v")));
		}
		finally {
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				catchThrowable(() -> run(redis, List.of("SCRIPT", "KILL")));
				assertThat(busy).isDone();
			});
		}
	}

	@Test
	void shouldRetryWhenAuthenticationIsMissing() {
		try (RedisServerProcess secured = RedisServerProcess.startNew("--requirepass", "s3cret")) {
			withoutHandshake(() -> assertReply(secured, FailureClass.TRANSIENT, "NOAUTH", List.of("SET", "k", "v")));
		}
	}

	@Test
	void shouldRetryWhileRedisLoadsItsDataSet() {
		// a data set that takes seconds to load: 20,000 keys, 100 µs each, client events
		// served meanwhile
		try (RedisServerProcess loading = RedisServerProcess.startNew("--enable-debug-command", "yes",
				"--key-load-delay", "100", "--loading-process-events-interval-bytes", "1024")) {
			run(loading, List.of("DEBUG", "POPULATE", "20000"));
			run(loading, List.of("SAVE"));
			loading.stop();
			loading.start();
			withoutHandshake(() -> assertReply(loading, FailureClass.TRANSIENT, "LOADING", List.of("SET", "k", "v")));
		}
	}

	/**
	 * RESP2 without PING: connecting sends nothing that would itself fail (NOAUTH,
	 * LOADING).
	 */
	private static void withoutHandshake(Runnable test) {
		client.setOptions(ClientOptions.builder()
			.protocolVersion(ProtocolVersion.RESP2)
			.pingBeforeActivateConnection(false)
			.build());
		try {
			test.run();
		}
		finally {
			client.setOptions(ClientOptions.create());
		}
	}

	@Test
	void shouldRetryWritesToAReplicaAndAReplicaCutOffFromItsMaster() {
		try (RedisServerProcess replica = RedisServerProcess.startNew("--replicaof", redis.host(),
				Integer.toString(redis.port()))) {
			assertReply(replica, FailureClass.TRANSIENT, "READONLY", List.of("SET", "k", "v"));
		}
		try (RedisServerProcess cutOff = RedisServerProcess.startNew("--replicaof", "127.0.0.1",
				Integer.toString(RedisServerProcess.freePort()), "--replica-serve-stale-data", "no")) {
			assertReply(cutOff, FailureClass.TRANSIENT, "MASTERDOWN", List.of("GET", "k"));
		}
	}

	@Test
	void shouldRetryOnAClusterWithoutItsSlots() {
		try (RedisServerProcess cluster = RedisServerProcess.startNew("--cluster-enabled", "yes")) {
			assertReply(cluster, FailureClass.TRANSIENT, "CLUSTERDOWN", List.of("SET", "k", "v"));
		}
	}

	@Test
	void shouldRetryAnyReplyItDoesNotKnowAndEveryFailureWithoutAReply() {
		assertThat(FailureClass.of(new RedisCommandExecutionException("PROXYERR backend unavailable")))
			.isEqualTo(FailureClass.TRANSIENT);
		RedisServerProcess gone = RedisServerProcess.startNew();
		gone.close();
		Throwable refused = catchThrowable(() -> client.connect(RedisURI.create(gone.host(), gone.port())));
		assertThat(refused).isNotNull();
		assertThat(FailureClass.of(refused)).isEqualTo(FailureClass.TRANSIENT);
	}

	@SafeVarargs
	private static void assertReply(FailureClass expected, String reply, List<String>... commands) {
		assertReply(redis, expected, reply, commands);
	}

	/**
	 * Runs the commands on one connection; the last one fails with {@code reply},
	 * classified {@code expected}.
	 */
	@SafeVarargs
	private static void assertReply(RedisServerProcess server, FailureClass expected, String reply,
			List<String>... commands) {
		Throwable failure = replyTo(server, commands);
		assertThat(failure).isInstanceOf(RedisCommandExecutionException.class);
		assertThat(failure.getMessage().toUpperCase(Locale.ROOT)).startsWith(reply.toUpperCase(Locale.ROOT));
		assertThat(FailureClass.of(failure)).as(failure.getMessage()).isEqualTo(expected);
	}

	/** The failure of the last command, after the ones before it succeeded. */
	@SafeVarargs
	private static Throwable replyTo(RedisServerProcess server, List<String>... commands) {
		try (StatefulRedisConnection<String, String> connection = client
			.connect(RedisURI.create(server.host(), server.port()))) {
			for (int i = 0; i < commands.length - 1; i++) {
				dispatch(connection, commands[i]).get(30, TimeUnit.SECONDS);
			}
			return catchThrowable(() -> {
				try {
					dispatch(connection, commands[commands.length - 1]).get(30, TimeUnit.SECONDS);
				}
				catch (java.util.concurrent.ExecutionException ex) {
					throw ex.getCause();
				}
			});
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static void run(RedisServerProcess server, List<String> command) {
		try (StatefulRedisConnection<String, String> connection = client
			.connect(RedisURI.create(server.host(), server.port()))) {
			dispatch(connection, command).get(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static CompletableFuture<List<Object>> dispatch(StatefulRedisConnection<String, String> connection,
			List<String> command) {
		CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8);
		command.subList(1, command.size()).forEach(args::add);
		ProtocolKeyword name = new Name(command.get(0));
		return connection.async().dispatch(name, new ArrayOutput<>(StringCodec.UTF8), args).toCompletableFuture();
	}

	private record Name(String command) implements ProtocolKeyword {

		@Override
		public byte[] getBytes() {
			return command.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
		}
	}

}
