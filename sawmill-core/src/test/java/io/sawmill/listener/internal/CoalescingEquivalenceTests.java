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
package io.sawmill.listener.internal;

import static io.sawmill.listener.internal.CoalescerTests.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.testkit.RedisServerProcess;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * The property coalescing rests on, against a real redis-server: any batch of
 * {@code HSET}, {@code EXPIRE}, {@code DEL} and other commands ({@code HDEL},
 * {@code PERSIST}, {@code SET}, and {@code RENAME}, which writes a key named among its
 * arguments) over a few keys, written through the real pipeline without coalescing to
 * database 0 and with it to database 1, both seeded with the same keys (missing, hashes
 * and strings, with and without a TTL), leaves every key the same: type, fields or value,
 * TTL present or not (and close).
 * <p>
 * jqwik draws the batches and, when one fails, shrinks it to a smallest failing batch and
 * reports it with the seed that replays it ({@code @Property(seed = ...)}).
 */
class CoalescingEquivalenceTests {

	private static final List<String> KEYS = List.of("k0", "k1", "k2", "k3");

	private static final List<String> FIELDS = List.of("f0", "f1", "f2");

	/** PEXPIRE for the last one, which is not a whole number of seconds. */
	private static final List<Duration> TTLS = List.of(Duration.ofSeconds(100), Duration.ofSeconds(200),
			Duration.ofMillis(300_500));

	/**
	 * The two databases are written a few milliseconds apart; TTLs drawn differ by at
	 * least 100 s.
	 */
	private static final long TTL_TOLERANCE_MILLIS = 10_000;

	private static final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private static final List<RedisClient> clients = new ArrayList<>();

	private static final List<LettucePipelinedWriter> writers = new ArrayList<>();

	private static @Nullable RedisServerProcess redis;

	private static RedisCommands<String, String> plainDb;

	private static RedisCommands<String, String> coalescedDb;

	private static PerRecordPipeline plain;

	private static PerRecordPipeline coalesced;

	@BeforeContainer
	static void startRedis() {
		RedisServerProcess server = RedisServerProcess.startNew();
		redis = server;
		plainDb = reader(server, 0);
		coalescedDb = reader(server, 1);
		plain = pipeline(server, 0, false);
		coalesced = pipeline(server, 1, true);
	}

	@AfterContainer
	static void stopRedis() {
		writers.forEach(LettucePipelinedWriter::close);
		clients.forEach(RedisClient::shutdown);
		if (redis != null) {
			redis.close();
		}
	}

	/**
	 * Not vacuous: at least a fifth of the batches give the coalescer writes to merge.
	 */
	@Property(tries = 200)
	void shouldLeaveEveryKeyAsWritingEachRecordInTurnDoesWhateverTheBatchAndTheKeysHeldBefore(
			@ForAll("batches") Batch batch) {
		double coalescedBefore = coalescedWrites();
		String difference = difference(batch);
		Statistics.label("writes merged").collect(coalescedWrites() > coalescedBefore);
		assertThat(difference).as("how the keys differ").isNull();
		Statistics.label("writes merged").coverage((coverage) -> coverage.check(true).percentage((p) -> p >= 20));
	}

	@Provide
	Arbitrary<Batch> batches() {
		Arbitrary<Map<String, Before>> before = Combinators.combine(before(), before(), before(), before())
			.as((k0, k1, k2, k3) -> held(List.of(k0, k1, k2, k3)));
		Arbitrary<List<List<Write>>> records = write().list()
			.ofMinSize(1)
			.ofMaxSize(3)
			.list()
			.ofMinSize(1)
			.ofMaxSize(12);
		// half the batches name keys and fields with one array per name, as a mapper that
		// reuses its arrays does (the coalescer compares those by identity first)
		return before.flatMap((state) -> records.flatMap(
				(writes) -> Arbitraries.of(true, false).map((sharedArrays) -> new Batch(state, writes, sharedArrays))));
	}

	/** What each of {@link #KEYS} holds, in turn; missing keys left out. */
	private static Map<String, Before> held(List<Before> states) {
		Map<String, Before> held = new LinkedHashMap<>();
		for (int i = 0; i < KEYS.size(); i++) {
			if (states.get(i) != Before.MISSING) {
				held.put(KEYS.get(i), states.get(i));
			}
		}
		return held;
	}

	/** A key missing, a hash or a string, with or without a TTL. */
	private static Arbitrary<Before> before() {
		Arbitrary<@Nullable Duration> ttl = Arbitraries.just(Duration.ofSeconds(1_000)).injectNull(0.5);
		Arbitrary<Before> hash = fields().flatMap((fields) -> ttl.map((t) -> new Before(fields, null, t)));
		Arbitrary<Before> string = ttl.map((t) -> new Before(null, "before", t));
		return Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just(Before.MISSING)), Tuple.of(3, hash),
				Tuple.of(1, string));
	}

	private static Arbitrary<Map<String, String>> fields() {
		return Arbitraries.maps(Arbitraries.of(FIELDS), Arbitraries.integers().between(0, 99).map((v) -> "v" + v))
			.ofMinSize(1)
			.ofMaxSize(FIELDS.size());
	}

	private static Arbitrary<Write> write() {
		Arbitrary<String> key = Arbitraries.of(KEYS);
		return Arbitraries.frequencyOf(Tuple.of(40, key.flatMap((k) -> fields().map((f) -> Write.hset(k, f)))),
				Tuple.of(25, key.flatMap((k) -> Arbitraries.of(TTLS).map((ttl) -> Write.expire(k, ttl)))),
				Tuple.of(15, key.map(Write::del)),
				Tuple.of(8, key.flatMap((k) -> Arbitraries.of(FIELDS).map((field) -> Write.command("HDEL", k, field)))),
				Tuple.of(5, key.map((k) -> Write.command("PERSIST", k))),
				// a command that writes a key other than its own: RENAME key other
				Tuple.of(4, key.flatMap((k) -> key.map((other) -> Write.command("RENAME", k, other)))),
				Tuple.of(3, key.flatMap(
						(k) -> Arbitraries.integers().between(0, 9).map((v) -> Write.command("SET", k, "set-" + v)))));
	}

	private static double coalescedWrites() {
		return registry.get("sawmill.writes.coalesced").tag("group", "coalesced").counter().count();
	}

	/**
	 * Writes the batch both ways; null when both databases end the same, else how they
	 * differ.
	 */
	private static @Nullable String difference(Batch batch) {
		plainDb.flushall();
		batch.seed(plainDb);
		batch.seed(coalescedDb);
		List<MappedRecord> records = batch.records();
		plain.finish(plain.send(records));
		coalesced.finish(coalesced.send(records));
		StringBuilder difference = new StringBuilder();
		for (String key : KEYS) {
			String without = state(plainDb, key);
			String with = state(coalescedDb, key);
			if (!without.equals(with) || !ttlsClose(key)) {
				difference.append("  ")
					.append(key)
					.append(": without coalescing ")
					.append(without)
					.append(" ttl=")
					.append(plainDb.pttl(key))
					.append(", with ")
					.append(with)
					.append(" ttl=")
					.append(coalescedDb.pttl(key))
					.append('\n');
			}
		}
		return difference.isEmpty() ? null : difference.toString();
	}

	/** The key's type and content, and whether it has a TTL. */
	private static String state(RedisCommands<String, String> db, String key) {
		String type = db.type(key);
		String content = switch (type) {
			case "hash" -> new TreeMap<>(db.hgetall(key)).toString();
			case "string" -> db.get(key);
			default -> "";
		};
		return type + " " + content + (db.pttl(key) > 0 ? " with TTL" : "");
	}

	private static boolean ttlsClose(String key) {
		long without = plainDb.pttl(key);
		long with = coalescedDb.pttl(key);
		return without <= 0 ? without == with : Math.abs(without - with) <= TTL_TOLERANCE_MILLIS;
	}

	private static RedisCommands<String, String> reader(RedisServerProcess server, int database) {
		RedisClient client = RedisClient.create(uri(server, database));
		clients.add(client);
		StatefulRedisConnection<String, String> connection = client.connect();
		return connection.sync();
	}

	private static PerRecordPipeline pipeline(RedisServerProcess server, int database, boolean coalesce) {
		RedisClient client = RedisClient.create(uri(server, database));
		clients.add(client);
		LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> client,
				PipelineConfig.custom().timeout(Duration.ofSeconds(10)).build());
		writers.add(writer);
		ListenerConfig config = ListenerConfig.custom().topics(List.of("t")).coalesceWrites(coalesce).build();
		return new PerRecordPipeline(writer, config, RedisCircuit.disabled("test"),
				new SawmillMetrics(registry, coalesce ? "coalesced" : "plain"));
	}

	private static RedisURI uri(RedisServerProcess server, int database) {
		return RedisURI.builder().withHost(server.host()).withPort(server.port()).withDatabase(database).build();
	}

	/**
	 * What a key holds before the batch: a hash's fields or a string's value, and a TTL
	 * or not.
	 */
	record Before(@Nullable Map<String, String> hash, @Nullable String string, @Nullable Duration ttl) {

		static final Before MISSING = new Before(null, null, null);

	}

	/**
	 * One write, drawn as data so that jqwik can shrink it; {@link #toWrite} makes it.
	 */
	record Write(String command, String key, Map<String, String> fields, @Nullable Duration ttl, List<String> args) {

		static Write hset(String key, Map<String, String> fields) {
			return new Write("HSET", key, fields, null, List.of());
		}

		static Write expire(String key, Duration ttl) {
			return new Write("EXPIRE", key, Map.of(), ttl, List.of());
		}

		static Write del(String key) {
			return new Write("DEL", key, Map.of(), null, List.of());
		}

		static Write command(String command, String key, String... args) {
			return new Write(command, key, Map.of(), null, List.of(args));
		}

		/**
		 * Keys and fields (the names) through {@code array}, which may hand out one array
		 * per name; key names among a command's arguments too.
		 */
		RedisWrite toWrite(Function<String, byte[]> array) {
			return switch (command) {
				case "HSET" -> {
					Map<byte[], byte[]> values = new LinkedHashMap<>();
					fields.forEach((field, value) -> values.put(array.apply(field), bytes(value)));
					yield RedisWrite.hset(array.apply(key), values);
				}
				case "EXPIRE" -> RedisWrite.expire(array.apply(key), Objects.requireNonNull(ttl));
				case "DEL" -> RedisWrite.del(array.apply(key));
				case "SET" -> RedisWrite.command("SET", array.apply(key), bytes(args.get(0)));
				default ->
					RedisWrite.command(command, array.apply(key), args.stream().map(array).toArray(byte[][]::new));
			};
		}

	}

	/** What the keys hold before the batch, and the batch: each record's writes. */
	record Batch(Map<String, Before> before, List<List<Write>> writes, boolean sharedArrays) {

		void seed(RedisCommands<String, String> db) {
			before.forEach((key, state) -> {
				if (state.hash() != null) {
					db.hset(key, state.hash());
				}
				else {
					db.set(key, state.string());
				}
				if (state.ttl() != null) {
					db.pexpire(key, state.ttl().toMillis());
				}
			});
		}

		List<MappedRecord> records() {
			Map<String, byte[]> arrays = new HashMap<>();
			Function<String, byte[]> array = sharedArrays
					? (name) -> arrays.computeIfAbsent(name, CoalescerTests::bytes) : CoalescerTests::bytes;
			List<MappedRecord> records = new ArrayList<>();
			for (int r = 0; r < writes.size(); r++) {
				records.add(new MappedRecord(new ConsumerRecord<>("t", 0, r, null, null),
						writes.get(r).stream().map((write) -> write.toWrite(array)).toList()));
			}
			return records;
		}

		@Override
		public String toString() {
			StringBuilder text = new StringBuilder(sharedArrays ? "(one array per name)\n" : "\n");
			before.forEach((key, state) -> text.append("  before: ")
				.append(key)
				.append(' ')
				.append(state.hash() != null ? state.hash() : state.string())
				.append(state.ttl() != null ? " ttl " + state.ttl() : "")
				.append('\n'));
			for (MappedRecord record : records()) {
				text.append("  record:");
				record.writes().forEach((write) -> text.append(' ').append(CoalescerTests.text(write)).append(';'));
				text.append('\n');
			}
			return text.toString();
		}

	}

}
