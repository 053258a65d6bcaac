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

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import io.sawmill.mapping.RedisWrite;

/**
 * The coalesce step as a pure function: which commands a batch's writes fold into, in
 * which order, and which records each command carries.
 */
class CoalescerTests {

	private final List<MappedRecord> records = new ArrayList<>();

	@Test
	void shouldSendEveryWriteAsItIsWhenNotCoalescing() {
		RedisWrite first = hset("k", "a", "1");
		RedisWrite second = hset("k", "a", "2");
		record(first, expire("k", 60));
		record(second);

		WritePlan plan = WritePlan.oneToOne(records);

		assertThat(plan.writes()).containsExactly(first, records.get(0).writes().get(1), second);
		assertThat(plan.carried()).containsExactly(new int[] { 0 }, new int[] { 0 }, new int[] { 1 });
		assertThat(plan.coalesced()).isZero();
	}

	@Test
	void shouldMergeSuccessiveHsetsWithTheLaterValueWinning() {
		// fields are distinct byte[] instances with equal content: merged by content, not
		// identity
		record(hset("k", "a", "1", "b", "1"));
		record(hset("k", "a", "2"));
		record(hset("k", "c", "3", "b", "3"));

		WritePlan plan = Coalescer.plan(records);

		assertThat(describe(plan)).containsExactly("HSET k a=2 b=3 c=3 <- [0, 1, 2]");
		assertThat(plan.coalesced()).isEqualTo(2);
	}

	@Test
	void shouldCarryTheLastTtlInOneExpireAfterTheMergedHset() {
		record(hset("k", "a", "1"), expire("k", 60));
		record(hset("k", "a", "2"), expire("k", 90));

		assertThat(describe(Coalescer.plan(records))).containsExactly("HSET k a=2 <- [0, 1]",
				"EXPIRE k PT1M30S <- [0, 1]");
	}

	@Test
	void shouldKeepAnExpireBeforeTheFirstHsetInFrontOfItWhenNoLaterExpireReplacesIt() {
		// on a missing key the EXPIRE does nothing and the HSET creates the key without a
		// TTL: sent after the HSET, it would give the key a TTL
		record(expire("k", 60));
		record(hset("k", "a", "1"));
		record(hset("k", "b", "2"));

		assertThat(describe(Coalescer.plan(records))).containsExactly("EXPIRE k PT1M <- [0]",
				"HSET k a=1 b=2 <- [1, 2]");
	}

	@Test
	void shouldFoldAnExpireBeforeTheFirstHsetIntoALaterExpire() {
		record(expire("k", 60));
		record(hset("k", "a", "1"));
		record(expire("k", 90));

		assertThat(describe(Coalescer.plan(records))).containsExactly("HSET k a=1 <- [1]",
				"EXPIRE k PT1M30S <- [0, 2]");
	}

	@Test
	void shouldResetWhatCameBeforeATombstone() {
		record(hset("k", "a", "1"), expire("k", 60));
		record(del("k"));
		record(hset("k", "b", "2"));

		WritePlan plan = Coalescer.plan(records);

		// no EXPIRE: the DEL took the TTL with it, and the key is created again without
		// one
		assertThat(describe(plan)).containsExactly("DEL k <- [0, 1]", "HSET k b=2 <- [2]");
		assertThat(plan.writes().get(0)).isSameAs(records.get(1).writes().get(0));
	}

	@Test
	void shouldDropAnExpireBetweenATombstoneAndTheNextHset() {
		record(del("k"));
		record(expire("k", 60));
		record(hset("k", "a", "1"));
		record(del("k"));
		record(expire("k", 30));

		assertThat(describe(Coalescer.plan(records))).containsExactly("DEL k <- [0, 1, 2, 3, 4]");
	}

	@Test
	void shouldKeepTheLastExpireAsItWasWrittenSoItsPrecisionStays() {
		RedisWrite.Expire millis = RedisWrite.expire(bytes("k"), Duration.ofMillis(1_500));
		record(hset("k", "a", "1"), expire("k", 60));
		record(hset("k", "a", "2"), millis);

		assertThat(Coalescer.plan(records).writes()).element(1).isSameAs(millis);
	}

	@Test
	void shouldSendTheOnlyWriteOfAKeyAsItIs() {
		RedisWrite only = hset("k", "a", "1");
		record(only);
		record(hset("other", "a", "1"), expire("other", 60));

		WritePlan plan = Coalescer.plan(records);

		assertThat(plan.writes()).first().isSameAs(only);
		assertThat(plan.coalesced()).isZero();
	}

	@Test
	void shouldNeverMoveAWriteAcrossACommandOfTheSameKey() {
		record(hset("k", "a", "1"));
		record(hset("k", "a", "2"));
		record(RedisWrite.command("HINCRBY", bytes("k"), bytes("n"), bytes("1")));
		record(hset("k", "a", "3"));
		record(hset("k", "a", "4"));

		assertThat(describe(Coalescer.plan(records))).containsExactly("HSET k a=2 <- [0, 1]", "HINCRBY k n 1 <- [2]",
				"HSET k a=4 <- [3, 4]");
	}

	@Test
	void shouldTreatACommandAsABarrierForEveryKeyItNames() {
		// what a HASH route with hash-update REPLACE maps each record to
		for (int version = 1; version <= 2; version++) {
			record(del("tmp"), hset("tmp", "f", "v" + version),
					RedisWrite.idempotentCommand("RENAME", bytes("tmp"), bytes("k")), expire("k", 60));
		}

		// merging the EXPIREs of k would put one before the second RENAME, which drops
		// the TTL
		assertThat(describe(Coalescer.plan(records))).containsExactly("DEL tmp <- [0]", "HSET tmp f=v1 <- [0]",
				"RENAME tmp k <- [0]", "EXPIRE k PT1M <- [0]", "DEL tmp <- [1]", "HSET tmp f=v2 <- [1]",
				"RENAME tmp k <- [1]", "EXPIRE k PT1M <- [1]");
	}

	@Test
	void shouldMergeAcrossACommandOfAnotherKey() {
		record(hset("user:a", "f", "1"));
		record(RedisWrite.command("SADD", bytes("index"), bytes("a")));
		record(hset("user:a", "f", "2"));
		record(RedisWrite.command("SADD", bytes("index"), bytes("b")));

		assertThat(describe(Coalescer.plan(records))).containsExactly("HSET user:a f=2 <- [0, 2]",
				"SADD index a <- [1]", "SADD index b <- [3]");
	}

	@Test
	void shouldCarryARecordWritingTwoKeysInTheCommandsOfBoth() {
		record(hset("a", "f", "1"));
		record(hset("a", "f", "2"), hset("b", "f", "2"));
		record(hset("b", "f", "3"));
		record(hset("c", "f", "4"));

		assertThat(describe(Coalescer.plan(records))).containsExactly("HSET a f=2 <- [0, 1]", "HSET b f=3 <- [1, 2]",
				"HSET c f=4 <- [3]");
	}

	@Test
	void shouldPlaceEachKeysCommandsWhereItsFirstWriteWas() {
		record(hset("a", "f", "1"));
		record(hset("b", "f", "1"));
		record(hset("a", "f", "2"));
		record(del("b"));

		assertThat(describe(Coalescer.plan(records))).containsExactly("HSET a f=2 <- [0, 2]", "DEL b <- [1, 3]");
	}

	private void record(RedisWrite... writes) {
		records.add(new MappedRecord(new ConsumerRecord<>("t", 0, records.size(), null, null), List.of(writes)));
	}

	/** Each command as text, with the indices of the records it carries. */
	static List<String> describe(WritePlan plan) {
		List<String> lines = new ArrayList<>();
		for (int i = 0; i < plan.writes().size(); i++) {
			lines.add(text(plan.writes().get(i)) + " <- " + java.util.Arrays.toString(plan.carriedBy(i)));
		}
		return lines;
	}

	/** A write as text: its fields or arguments in full. */
	static String text(RedisWrite write) {
		if (write instanceof RedisWrite.HashSet hashSet) {
			StringBuilder text = new StringBuilder("HSET ").append(string(write.key()));
			hashSet.fields()
				.forEach((field, value) -> text.append(' ').append(string(field)).append('=').append(string(value)));
			return text.toString();
		}
		if (write instanceof RedisWrite.Command command) {
			StringBuilder text = new StringBuilder(command.name()).append(' ').append(string(write.key()));
			command.args().forEach(arg -> text.append(' ').append(string(arg)));
			return text.toString();
		}
		return write.toString();
	}

	static RedisWrite hset(String key, String... fieldsAndValues) {
		Map<byte[], byte[]> fields = new LinkedHashMap<>();
		for (int i = 0; i < fieldsAndValues.length; i += 2) {
			fields.put(bytes(fieldsAndValues[i]), bytes(fieldsAndValues[i + 1]));
		}
		return RedisWrite.hset(bytes(key), fields);
	}

	static RedisWrite expire(String key, int seconds) {
		return RedisWrite.expire(bytes(key), Duration.ofSeconds(seconds));
	}

	static RedisWrite del(String key) {
		return RedisWrite.del(bytes(key));
	}

	static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	static String string(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
