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
package io.sawmill.mapping;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One Redis command produced by a {@link RecordMapper} for one Kafka record.
 * <p>
 * The common writes have their own types ({@link HashSet}, {@link Expire},
 * {@link Delete}); anything else (SET, SADD, ZADD, XADD, HINCRBY, …) is a
 * {@link Command}. All writes of a record are sent in the order the mapper returned them,
 * on the same connection, so they are applied in that order. Instances are immutable;
 * byte arrays passed in are not copied and must not be changed afterwards.
 * <p>
 * <b>Repeats.</b> Delivery is at-least-once: a write may be sent again after it was
 * applied (its batch polled again after a failure, a restart before the commit, a
 * rebalance). Each write says whether that is harmless ({@link #idempotent()}).
 * {@code HSET}, {@code EXPIRE} and {@code DEL} are; a {@link #command} is idempotent only
 * when its name is one of {@link Command#IDEMPOTENT_COMMANDS}, and
 * {@link #idempotentCommand} declares any other command idempotent. A batch holding a
 * non-idempotent write ({@code INCR}, {@code HINCRBY}, {@code LPUSH}, {@code XADD}, …) is
 * never partly sent again: when a transient failure hits it, it is not retried record by
 * record; nothing of it is committed and the whole batch is polled again after the
 * redelivery backoff. So each of its records is applied <em>at least once and possibly
 * more than once</em> — a counter may count a record twice, a list may hold it twice —
 * and a WARN line and {@code sawmill_batch_non_idempotent_repeated_total} say when that
 * can have happened. With {@code sawmill.delivery=exactly-once} each record's writes are
 * applied once instead.
 * <p>
 * A {@link Function} calls a Redis Function; its reply says whether it was applied
 * ({@link VersionGuard} is the built-in one).
 * <p>
 * <b>Coalescing.</b> With {@code sawmill.coalesce-writes}, the {@link HashSet},
 * {@link Expire} and {@link Delete} writes of one key in one batch may be merged into
 * fewer commands that leave the key as writing them one by one would. A {@link Command}
 * or a {@link Function} is never merged: it is sent as it is, and the writes of its key,
 * and of every key named among a command's arguments, stay on their side of it.
 */
public sealed interface RedisWrite
		permits RedisWrite.HashSet, RedisWrite.Expire, RedisWrite.Delete, RedisWrite.Command, RedisWrite.Function {

	/** The key this write touches; in Redis Cluster it decides the shard. */
	byte[] key();

	/** Whether applying this write twice leaves Redis as applying it once does. */
	default boolean idempotent() {
		return true;
	}

	/** {@code HSET key field value [field value …]}; {@code fields} must not be empty. */
	static HashSet hset(byte[] key, Map<byte[], byte[]> fields) {
		return new HashSet(key, fields);
	}

	/** {@code HSET} with UTF-8 strings, keeping the map's iteration order. */
	static HashSet hset(String key, Map<String, String> fields) {
		Map<byte[], byte[]> encoded = new LinkedHashMap<>(fields.size() * 2);
		fields.forEach((field, value) -> encoded.put(utf8(field), utf8(value)));
		return new HashSet(utf8(key), encoded);
	}

	/**
	 * {@code EXPIRE key seconds}, or {@code PEXPIRE} when {@code ttl} is not a whole
	 * number of seconds.
	 */
	static Expire expire(byte[] key, Duration ttl) {
		return new Expire(key, ttl);
	}

	/** {@code DEL key}: what a tombstone (a record with a null value) usually maps to. */
	static Delete del(byte[] key) {
		return new Delete(key);
	}

	/**
	 * Any other command, e.g. {@code command("INCR", key)}. The reply is checked for an
	 * error only; its value is not interpreted. Idempotent only when {@code name} is one
	 * of {@link Command#IDEMPOTENT_COMMANDS}; see {@link RedisWrite} for what a
	 * non-idempotent write means for a batch.
	 * @param name the command name as Redis knows it (case-insensitive)
	 * @param key the key, sent as the first argument
	 * @param args the remaining arguments, in order
	 */
	static Command command(String name, byte[] key, byte[]... args) {
		Objects.requireNonNull(name, "name");
		return new Command(name, key, List.of(args),
				Command.IDEMPOTENT_COMMANDS.contains(name.toUpperCase(Locale.ROOT)));
	}

	/**
	 * A command the caller declares idempotent (applying it twice does what applying it
	 * once does), e.g. {@code idempotentCommand("ZADD", key, score, member)}: a batch of
	 * such writes is retried record by record like the built-in writes.
	 */
	static Command idempotentCommand(String name, byte[] key, byte[]... args) {
		return new Command(name, key, List.of(args), true);
	}

	/**
	 * {@code FCALL function 1 key args…}: a Redis Function of one key, e.g. a
	 * version-guarded write ({@link VersionGuard}). Not idempotent;
	 * {@link #idempotentFunction} declares one that is.
	 */
	static Function function(String function, byte[] key, byte[]... args) {
		return new Function(function, key, List.of(args), false);
	}

	/**
	 * {@code FCALL} of a function the caller declares idempotent, retried record by
	 * record like the built-in writes.
	 */
	static Function idempotentFunction(String function, byte[] key, byte[]... args) {
		return new Function(function, key, List.of(args), true);
	}

	static byte[] utf8(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	/** {@code HSET key field value …}. */
	record HashSet(byte[] key, Map<byte[], byte[]> fields) implements RedisWrite {
		public HashSet {
			Objects.requireNonNull(key, "key");
			Objects.requireNonNull(fields, "fields");
			if (fields.isEmpty()) {
				throw new IllegalArgumentException("HSET needs at least one field, but was given none for key "
						+ new String(key, StandardCharsets.UTF_8));
			}
		}

		@Override
		public String toString() {
			return "HSET " + new String(key, StandardCharsets.UTF_8) + " (" + fields.size() + " fields)";
		}
	}

	/** {@code EXPIRE key seconds} (or {@code PEXPIRE} for sub-second precision). */
	record Expire(byte[] key, Duration ttl) implements RedisWrite {
		public Expire {
			Objects.requireNonNull(key, "key");
			Objects.requireNonNull(ttl, "ttl");
			if (ttl.isNegative() || ttl.isZero()) {
				throw new IllegalArgumentException("ttl must be positive, but was " + ttl);
			}
		}

		@Override
		public String toString() {
			return "EXPIRE " + new String(key, StandardCharsets.UTF_8) + " " + ttl;
		}
	}

	/** {@code DEL key}. */
	record Delete(byte[] key) implements RedisWrite {
		public Delete {
			Objects.requireNonNull(key, "key");
		}

		@Override
		public String toString() {
			return "DEL " + new String(key, StandardCharsets.UTF_8);
		}
	}

	/**
	 * Any other command: {@code name key args…}.
	 *
	 * @param idempotent whether applying it twice does what applying it once does
	 */
	record Command(String name, byte[] key, List<byte[]> args, boolean idempotent) implements RedisWrite {

		/**
		 * Commands {@link RedisWrite#command} treats as idempotent: they set, add or
		 * remove a value, so applying them again leaves the same state ({@code EXPIRE}
		 * restarts the TTL from the second application).
		 */
		public static final Set<String> IDEMPOTENT_COMMANDS = Set.of("SET", "HSET", "HMSET", "HDEL", "DEL", "UNLINK",
				"EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT", "PERSIST", "SADD", "SREM", "ZREM");

		/**
		 * A command that is not idempotent: {@link RedisWrite#command} decides by name
		 * instead.
		 */
		public Command(String name, byte[] key, List<byte[]> args) {
			this(name, key, args, false);
		}

		public Command {
			Objects.requireNonNull(name, "name");
			Objects.requireNonNull(key, "key");
			if (name.isBlank() || name.chars().anyMatch(Character::isWhitespace)) {
				throw new IllegalArgumentException("command name must be one word, but was '" + name + "'");
			}
			args = List.copyOf(args);
		}

		@Override
		public String toString() {
			return name + " " + new String(key, StandardCharsets.UTF_8) + " (" + args.size() + " args)";
		}
	}

	/**
	 * {@code FCALL function 1 key args…}: a Redis Function called on one key (so it runs
	 * on Redis Cluster too). Its reply is read: the integer 0 means the function did not
	 * apply the write because the key holds something newer, and the record is counted
	 * {@code stale} (never dead-lettered, committed like a written one); any other reply
	 * means it was applied. An error reply fails like any write's
	 * ({@code ERR Function not found} is transient: the writer loads its libraries again
	 * and the write is retried).
	 *
	 * @param idempotent whether applying it twice does what applying it once does
	 */
	record Function(String function, byte[] key, List<byte[]> args, boolean idempotent) implements RedisWrite {
		public Function {
			Objects.requireNonNull(function, "function");
			Objects.requireNonNull(key, "key");
			if (function.isBlank() || function.chars().anyMatch(Character::isWhitespace)) {
				throw new IllegalArgumentException("function name must be one word, but was '" + function + "'");
			}
			args = List.copyOf(args);
		}

		@Override
		public String toString() {
			return "FCALL " + function + " " + new String(key, StandardCharsets.UTF_8) + " (" + args.size() + " args)";
		}
	}

}
