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
import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.PipelineConfig;
import io.sawmill.redis.internal.LettucePipelinedWriter;
import io.sawmill.testkit.RedisServerProcess;

/**
 * The property coalescing rests on, against a real redis-server: any batch of
 * {@code HSET}, {@code EXPIRE}, {@code DEL} and other commands ({@code HDEL},
 * {@code PERSIST}, {@code SET}, and {@code RENAME}, which writes a key named among its
 * arguments) over a few keys, written through the real pipeline without coalescing to
 * database 0 and with it to database 1, both seeded with the same keys (missing, hashes
 * and strings, with and without a TTL), leaves every key the same: type, fields or value,
 * TTL present or not (and close).
 * <p>
 * Each try is a batch drawn from a seeded {@link Random}; a failing batch is shrunk,
 * record by record, to one that still fails, and reported with its seed.
 * {@code -Dsawmill.coalescing.tries} and {@code -Dsawmill.coalescing.seed} (the first
 * seed) explore further.
 */
class CoalescingEquivalenceTests {

	private static final int TRIES = Integer.getInteger("sawmill.coalescing.tries", 200);

	private static final long FIRST_SEED = Long.getLong("sawmill.coalescing.seed", 1);

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

	private static RedisServerProcess redis;

	private static final List<RedisClient> clients = new ArrayList<>();

	private static final List<LettucePipelinedWriter> writers = new ArrayList<>();

	private static RedisCommands<String, String> plainDb;

	private static RedisCommands<String, String> coalescedDb;

	private static PerRecordPipeline plain;

	private static PerRecordPipeline coalesced;

	private static final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@BeforeAll
	static void startRedis() {
		redis = RedisServerProcess.startNew();
		plainDb = reader(0);
		coalescedDb = reader(1);
		plain = pipeline(0, false);
		coalesced = pipeline(1, true);
	}

	@AfterAll
	static void stopRedis() {
		writers.forEach(LettucePipelinedWriter::close);
		clients.forEach(RedisClient::shutdown);
		if (redis != null) {
			redis.close();
		}
	}

	@Test
	void shouldLeaveEveryKeyAsWritingEachRecordInTurnDoesWhateverTheBatchAndTheKeysHeldBefore() {
		for (long seed = FIRST_SEED; seed < FIRST_SEED + TRIES; seed++) {
			Batch batch = Batch.random(new Random(seed));
			if (difference(batch) != null) {
				Batch smallest = shrink(batch);
				fail("seed " + seed + ", shrunk to:\n" + smallest + "differs:\n" + difference(smallest));
			}
		}
		// not vacuous: the batches drawn did give the coalescer writes to merge
		assertThat(registry.get("sawmill.writes.coalesced").tag("group", "coalesced").counter().count())
			.isGreaterThan(TRIES);
	}

	/**
	 * Writes the batch both ways; null when both databases end the same, else how they
	 * differ.
	 */
	private static String difference(Batch batch) {
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

	/** Drops records, then single writes, one at a time while the batch still fails. */
	private static Batch shrink(Batch failing) {
		Batch smallest = failing;
		boolean shrunk = true;
		while (shrunk) {
			shrunk = false;
			for (int r = 0; !shrunk && r < smallest.writes().size(); r++) {
				for (int w = -1; !shrunk && w < smallest.writes().get(r).size(); w++) {
					// w = -1: the whole record
					Batch candidate = w < 0 ? smallest.without(r) : smallest.without(r, w);
					if (difference(candidate) != null) {
						smallest = candidate;
						shrunk = true;
					}
				}
			}
		}
		return smallest;
	}

	private static RedisCommands<String, String> reader(int database) {
		RedisClient client = RedisClient.create(uri(database));
		clients.add(client);
		StatefulRedisConnection<String, String> connection = client.connect();
		return connection.sync();
	}

	private static PerRecordPipeline pipeline(int database, boolean coalesce) {
		RedisClient client = RedisClient.create(uri(database));
		clients.add(client);
		LettucePipelinedWriter writer = new LettucePipelinedWriter(() -> client,
				PipelineConfig.custom().timeout(Duration.ofSeconds(10)).build());
		writers.add(writer);
		ListenerConfig config = ListenerConfig.custom().topics(List.of("t")).coalesceWrites(coalesce).build();
		return new PerRecordPipeline(writer, config, RedisCircuit.disabled("test"),
				new SawmillMetrics(registry, coalesce ? "coalesced" : "plain"));
	}

	private static RedisURI uri(int database) {
		return RedisURI.builder().withHost(redis.host()).withPort(redis.port()).withDatabase(database).build();
	}

	/**
	 * What the keys hold before the batch, and the batch: each record's writes.
	 *
	 * @param before per key: {@code null} (missing), a hash's fields or a string's value,
	 * and a TTL or not
	 */
	private record Batch(Map<String, Before> before, List<List<RedisWrite>> writes) {

		record Before(Map<String, String> hash, String string, Duration ttl) {
		}

		static Batch random(Random random) {
			Map<String, Before> before = new LinkedHashMap<>();
			for (String key : KEYS) {
				Duration ttl = random.nextBoolean() ? Duration.ofSeconds(1_000) : null;
				switch (random.nextInt(6)) {
					case 0, 1, 2 -> before.put(key, new Before(fields(random), null, ttl));
					case 3 -> before.put(key, new Before(null, "before", ttl));
					default -> {
						// missing
					}
				}
			}
			// half the batches name keys and fields with one array per name, as a mapper
			// that reuses its
			// arrays does (the coalescer compares those by identity first); the others
			// with new arrays
			Map<String, byte[]> arrays = random.nextBoolean() ? new HashMap<>() : null;
			List<List<RedisWrite>> writes = new ArrayList<>();
			int records = 1 + random.nextInt(12);
			for (int r = 0; r < records; r++) {
				List<RedisWrite> record = new ArrayList<>();
				int count = 1 + (random.nextInt(3) == 0 ? 1 : 0) + (random.nextInt(6) == 0 ? 1 : 0);
				for (int w = 0; w < count; w++) {
					record.add(write(random, KEYS.get(random.nextInt(KEYS.size())), arrays));
				}
				writes.add(record);
			}
			return new Batch(before, writes);
		}

		private static RedisWrite write(Random random, String key, Map<String, byte[]> arrays) {
			Function<String, byte[]> array = arrays == null ? CoalescerTests::bytes
					: name -> arrays.computeIfAbsent(name, CoalescerTests::bytes);
			int kind = random.nextInt(100);
			if (kind < 40) {
				Map<byte[], byte[]> fields = new LinkedHashMap<>();
				fields(random).forEach((field, value) -> fields.put(array.apply(field), bytes(value)));
				return RedisWrite.hset(array.apply(key), fields);
			}
			if (kind < 65) {
				return RedisWrite.expire(array.apply(key), TTLS.get(random.nextInt(TTLS.size())));
			}
			if (kind < 80) {
				return RedisWrite.del(array.apply(key));
			}
			if (kind < 88) {
				return RedisWrite.command("HDEL", array.apply(key),
						array.apply(FIELDS.get(random.nextInt(FIELDS.size()))));
			}
			if (kind < 93) {
				return RedisWrite.command("PERSIST", array.apply(key));
			}
			if (kind < 97) {
				// a command that writes a key other than its own: RENAME key other
				return RedisWrite.command("RENAME", array.apply(key),
						array.apply(KEYS.get(random.nextInt(KEYS.size()))));
			}
			return RedisWrite.command("SET", array.apply(key), bytes("set-" + random.nextInt(10)));
		}

		private static Map<String, String> fields(Random random) {
			Map<String, String> fields = new LinkedHashMap<>();
			int count = 1 + random.nextInt(FIELDS.size());
			for (int i = 0; i < count; i++) {
				fields.put(FIELDS.get(random.nextInt(FIELDS.size())), "v" + random.nextInt(100));
			}
			return fields;
		}

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
			List<MappedRecord> records = new ArrayList<>();
			for (int r = 0; r < writes.size(); r++) {
				records.add(new MappedRecord(new ConsumerRecord<>("t", 0, r, null, null), writes.get(r)));
			}
			return records;
		}

		Batch without(int record) {
			List<List<RedisWrite>> fewer = new ArrayList<>(writes);
			fewer.remove(record);
			return new Batch(before, fewer);
		}

		/**
		 * Without one write of a record; without the record when that was its only write.
		 */
		Batch without(int record, int write) {
			if (writes.get(record).size() == 1) {
				return without(record);
			}
			List<RedisWrite> fewerWrites = new ArrayList<>(writes.get(record));
			fewerWrites.remove(write);
			List<List<RedisWrite>> fewer = new ArrayList<>(writes);
			fewer.set(record, fewerWrites);
			return new Batch(before, fewer);
		}

		@Override
		public String toString() {
			StringBuilder text = new StringBuilder();
			before.forEach((key, state) -> text.append("  before: ")
				.append(key)
				.append(' ')
				.append(state.hash() != null ? state.hash() : state.string())
				.append(state.ttl() != null ? " ttl " + state.ttl() : "")
				.append('\n'));
			for (List<RedisWrite> record : writes) {
				text.append("  record:");
				record.forEach(write -> text.append(' ').append(CoalescerTests.text(write)).append(';'));
				text.append('\n');
			}
			return text.toString();
		}
	}

}
