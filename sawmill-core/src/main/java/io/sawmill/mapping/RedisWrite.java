package io.sawmill.mapping;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One Redis command produced by a {@link RecordMapper} for one Kafka record.
 * <p>
 * The common writes have their own types ({@link HashSet}, {@link Expire}, {@link Delete}); anything
 * else (SET, SADD, ZADD, XADD, HINCRBY, …) is a {@link Command}. All writes of a record are sent in
 * the order the mapper returned them, on the same connection, so they are applied in that order.
 * Instances are immutable; byte arrays passed in are not copied and must not be changed afterwards.
 */
public sealed interface RedisWrite permits RedisWrite.HashSet, RedisWrite.Expire, RedisWrite.Delete, RedisWrite.Command {

	/** The key this write touches; in Redis Cluster it decides the shard. */
	byte[] key();

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

	/** {@code EXPIRE key seconds}, or {@code PEXPIRE} when {@code ttl} is not a whole number of seconds. */
	static Expire expire(byte[] key, Duration ttl) {
		return new Expire(key, ttl);
	}

	/** {@code DEL key}: what a tombstone (a record with a null value) usually maps to. */
	static Delete del(byte[] key) {
		return new Delete(key);
	}

	/**
	 * Any other command, e.g. {@code command("ZADD", key, score, member)}. The reply is checked for an
	 * error only; its value is not interpreted.
	 * @param name the command name as Redis knows it (case-insensitive)
	 * @param key the key, sent as the first argument
	 * @param args the remaining arguments, in order
	 */
	static Command command(String name, byte[] key, byte[]... args) {
		return new Command(name, key, List.of(args));
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

	/** Any other command: {@code name key args…}. */
	record Command(String name, byte[] key, List<byte[]> args) implements RedisWrite {
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
}
