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
package io.sawmill.mapping.route.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.jspecify.annotations.Nullable;

import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RecordMappingException;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.internal.FieldSelection;
import io.sawmill.mapping.internal.FlatFields;
import io.sawmill.mapping.internal.KeyTemplate;
import io.sawmill.mapping.registry.internal.SchemaFormat;
import io.sawmill.mapping.registry.internal.SchemaRegistry;
import io.sawmill.mapping.route.HashUpdate;
import io.sawmill.mapping.route.KeyFormat;
import io.sawmill.mapping.route.ListEnd;
import io.sawmill.mapping.route.NullFields;
import io.sawmill.mapping.route.RedisType;
import tools.jackson.databind.JsonNode;

/**
 * One route's mapping: decodes the value, resolves the key and returns the writes of the
 * route's {@link RedisType}. Thread-safe.
 */
final class RouteMapper implements RecordMapper {

	private static final FlatFields NO_FIELDS = new FlatFields(false);

	private static final byte[] TEMP_SUFFIX = ":sawmill-replace".getBytes(StandardCharsets.US_ASCII);

	private final RouteConfig config;

	private final KeyTemplate key;

	private final @Nullable KeyTemplate member;

	private final ValueDecoder decoder;

	private final FirstRecordCheck firstRecord;

	private final FieldSelection selection;

	private final @Nullable SchemaRegistry registry;

	private final @Nullable SchemaFormat keyFormat;

	RouteMapper(RouteConfig config) {
		this.config = config;
		this.key = config.keyTemplate();
		this.member = config.member();
		boolean needsFields = key.usesValueFields() || (member != null && member.usesValueFields())
				|| EnumSet.of(RedisType.HASH, RedisType.STREAM, RedisType.SORTED_SET).contains(config.type())
				|| config.valueField() != null || config.ttlField() != null;
		this.registry = config.schemaRegistry() == null ? null : SchemaRegistry.of(config.schemaRegistry());
		this.keyFormat = config.keyFormat() == KeyFormat.RAW ? null : SchemaFormat.valueOf(config.keyFormat().name());
		if (keyFormat != null) {
			ValueTrees.requireLibraries(config.name(), "key-format", keyFormat);
		}
		SchemaFormat valueRead = switch (config.valueFormat()) {
			case AVRO -> config.avroSchema() == null ? SchemaFormat.AVRO : null;
			case PROTOBUF -> SchemaFormat.PROTOBUF;
			case JSON_SCHEMA -> SchemaFormat.JSON_SCHEMA;
			case JSON, STRING, DESERIALIZER -> null;
		};
		if (valueRead != null) {
			ValueTrees.requireLibraries(config.name(), "value-format", valueRead);
		}
		this.decoder = new ValueDecoder(config, needsFields, registry);
		this.firstRecord = new FirstRecordCheck(config);
		this.selection = new FieldSelection(config.fields(), config.pathSeparator());
	}

	RouteConfig config() {
		return config;
	}

	@Override
	public List<RedisWrite> map(ConsumerRecord<byte[], byte[]> polled) {
		ConsumerRecord<byte[], byte[]> record = keyFormat == null ? polled : withKeyRead(polled, keyFormat);
		if (record.value() == null) {
			return tombstone(record);
		}
		ValueDecoder.Decoded value = decoder.decode(record);
		FlatFields fields = value.fields();
		firstRecord.check(record, fields);
		byte[] redisKey = key.resolve(record, fields);
		Duration ttl = ttl(record, fields);
		List<RedisWrite> writes = switch (config.type()) {
			case HASH ->
				config.hashUpdate() == HashUpdate.MERGE ? hashMerge(redisKey, fields) : hashReplace(redisKey, fields);
			case STRING -> ttl.isZero() ? List.of(RedisWrite.command("SET", redisKey, element(value)))
					: List.of(RedisWrite.command("SET", redisKey, element(value), ascii("PX"), ascii(ttl.toMillis())));
			case SORTED_SET -> List
				.of(RedisWrite.idempotentCommand("ZADD", redisKey, score(fields), member().resolve(record, fields)));
			case SET -> List.of(RedisWrite.command("SADD", redisKey, member().resolve(record, fields)));
			case LIST -> list(redisKey, element(value));
			case STREAM -> stream(redisKey, fields);
			case DELETE -> List.of(RedisWrite.del(redisKey));
		};
		if (ttl.isZero() || writes.isEmpty() || config.type() == RedisType.STRING) {
			return writes;
		}
		List<RedisWrite> withTtl = new ArrayList<>(writes);
		withTtl.add(RedisWrite.expire(redisKey, ttl));
		return withTtl;
	}

	/**
	 * The record with its registry-framed key replaced by the key's text, which is what
	 * {@code {@key}} stands for: a string or number as it is, anything else as compact
	 * JSON.
	 */
	private ConsumerRecord<byte[], byte[]> withKeyRead(ConsumerRecord<byte[], byte[]> record, SchemaFormat keyFormat) {
		if (record.key() == null) {
			return record;
		}
		JsonNode key;
		try {
			key = ValueDecoder.registryTree(registry, keyFormat, record.key());
		}
		catch (RecordMappingException ex) {
			throw new RecordMappingException("key-format " + keyFormat + ": " + ex.getMessage(), ex);
		}
		String text = key.isString() || key.isNumber() || key.isBoolean() ? key.asString() : key.toString();
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		return new ConsumerRecord<>(record.topic(), record.partition(), record.offset(), record.timestamp(),
				record.timestampType(), bytes.length, record.serializedValueSize(), bytes, record.value(),
				record.headers(), record.leaderEpoch());
	}

	private List<RedisWrite> tombstone(ConsumerRecord<byte[], byte[]> record) {
		if (config.type() == RedisType.LIST || config.type() == RedisType.STREAM) {
			// nothing to remove: the element a tombstone stands for is not known
			return List.of();
		}
		if (key.usesValueFields() || (member != null && member.usesValueFields())) {
			throw new RecordMappingException("route '" + config.name() + "': a tombstone has no value, but the "
					+ (key.usesValueFields() ? "key-template '" + key.source() : "member '" + member().source())
					+ "' reads value fields; use {@key} to support deletes");
		}
		byte[] redisKey = key.resolve(record, NO_FIELDS);
		return switch (config.type()) {
			case HASH, STRING, DELETE -> List.of(RedisWrite.del(redisKey));
			case SORTED_SET -> List.of(RedisWrite.command("ZREM", redisKey, member().resolve(record, NO_FIELDS)));
			case SET -> List.of(RedisWrite.command("SREM", redisKey, member().resolve(record, NO_FIELDS)));
			case LIST, STREAM -> throw new IllegalStateException("handled above");
		};
	}

	/** The member of a SET or SORTED_SET, which RouteRules requires for those types. */
	private KeyTemplate member() {
		return Objects.requireNonNull(member, "RouteRules requires a member of a set");
	}

	private List<RedisWrite> hashMerge(byte[] redisKey, FlatFields fields) {
		Map<byte[], byte[]> selected = selection.select(fields);
		List<RedisWrite> writes = new ArrayList<>(2);
		if (!selected.isEmpty()) {
			writes.add(RedisWrite.hset(redisKey, selected));
		}
		if (config.nullFields() == NullFields.DELETE) {
			byte[][] nulls = fields.nulls()
				.stream()
				.filter(selection::selects)
				.map(path -> path.getBytes(StandardCharsets.UTF_8))
				.toArray(byte[][]::new);
			if (nulls.length > 0) {
				writes.add(RedisWrite.command("HDEL", redisKey, nulls));
			}
		}
		return writes;
	}

	/**
	 * The hash becomes exactly these fields: written aside, then renamed over the key
	 * atomically.
	 */
	private List<RedisWrite> hashReplace(byte[] redisKey, FlatFields fields) {
		Map<byte[], byte[]> selected = selection.select(fields);
		if (selected.isEmpty()) {
			return List.of(RedisWrite.del(redisKey));
		}
		byte[] temp = tempKey(redisKey);
		return List.of(RedisWrite.del(temp), RedisWrite.hset(temp, selected),
				RedisWrite.idempotentCommand("RENAME", temp, redisKey));
	}

	/**
	 * A key in the same Redis Cluster slot as {@code key}, as {@code RENAME} requires:
	 * the key plus a suffix when it has a hash tag (the first {@code {…}} decides the
	 * slot, and the suffix comes after it); otherwise the whole key becomes the hash tag,
	 * which hashes exactly as the key does, which needs a key without '}'.
	 */
	static byte[] tempKey(byte[] key) {
		int open = indexOf(key, (byte) '{', 0);
		int close = open < 0 ? -1 : indexOf(key, (byte) '}', open + 1);
		if (close > open + 1) {
			return concat(key, TEMP_SUFFIX);
		}
		if (indexOf(key, (byte) '}', 0) >= 0) {
			throw new RecordMappingException("hash-update REPLACE cannot place a temporary key in the slot of '"
					+ new String(key, StandardCharsets.UTF_8)
					+ "', which has a '}' but no hash tag; give the key a hash tag, " + "e.g. '{{{@key}}}'");
		}
		return concat(concat(new byte[] { '{' }, key), concat(new byte[] { '}' }, TEMP_SUFFIX));
	}

	private List<RedisWrite> list(byte[] redisKey, byte[] element) {
		boolean left = config.listEnd() == ListEnd.LEFT;
		RedisWrite push = RedisWrite.command(left ? "LPUSH" : "RPUSH", redisKey, element);
		long cap = config.maxLength();
		if (cap == 0) {
			return List.of(push);
		}
		return List.of(push, left ? RedisWrite.idempotentCommand("LTRIM", redisKey, ascii(0), ascii(cap - 1))
				: RedisWrite.idempotentCommand("LTRIM", redisKey, ascii(-cap), ascii(-1)));
	}

	private List<RedisWrite> stream(byte[] redisKey, FlatFields fields) {
		Map<byte[], byte[]> selected = selection.select(fields);
		if (selected.isEmpty()) {
			return List.of(); // XADD needs a field
		}
		List<byte[]> args = new ArrayList<>(selected.size() * 2 + 4);
		if (config.maxLength() > 0) {
			args.add(ascii("MAXLEN"));
			args.add(ascii("~"));
			args.add(ascii(config.maxLength()));
		}
		args.add(ascii("*"));
		selected.forEach((name, value) -> {
			args.add(name);
			args.add(value);
		});
		return List.of(RedisWrite.command("XADD", redisKey, args.toArray(byte[][]::new)));
	}

	private byte[] element(ValueDecoder.Decoded value) {
		return config.valueField() == null ? value.whole()
				: required(value.fields(), config.valueField(), "value-field");
	}

	private byte[] score(FlatFields fields) {
		byte[] score = required(fields, config.scoreField(), "score-field");
		String text = new String(score, StandardCharsets.UTF_8);
		try {
			double parsed = Double.parseDouble(text);
			if (Double.isNaN(parsed)) {
				throw new NumberFormatException();
			}
			return score;
		}
		catch (NumberFormatException ex) {
			throw new RecordMappingException(
					"score-field '" + config.scoreField() + "' must be a number, but was '" + text + "'");
		}
	}

	private Duration ttl(ConsumerRecord<byte[], byte[]> record, FlatFields fields) {
		byte[] seconds = null;
		String source = null;
		if (config.ttlField() != null) {
			seconds = fields.get(config.ttlField());
			source = "ttl-field '" + config.ttlField() + "'";
		}
		else if (config.ttlHeader() != null) {
			Header header = record.headers().lastHeader(config.ttlHeader());
			seconds = header == null ? null : header.value();
			source = "ttl-header '" + config.ttlHeader() + "'";
		}
		if (seconds == null) {
			return config.ttl();
		}
		String text = new String(seconds, StandardCharsets.UTF_8).trim();
		try {
			long parsed = Long.parseLong(text);
			if (parsed > 0) {
				return Duration.ofSeconds(parsed);
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw new RecordMappingException(
				source + " must be a positive whole number of seconds, but was '" + text + "'");
	}

	private static byte[] required(FlatFields fields, @Nullable String name, String option) {
		byte[] value = fields.get(name);
		if (value == null) {
			throw new RecordMappingException(option + " '" + name + "' is missing or null");
		}
		return value;
	}

	private static byte[] ascii(Object value) {
		return value.toString().getBytes(StandardCharsets.US_ASCII);
	}

	private static int indexOf(byte[] bytes, byte b, int from) {
		for (int i = from; i < bytes.length; i++) {
			if (bytes[i] == b) {
				return i;
			}
		}
		return -1;
	}

	private static byte[] concat(byte[] a, byte[] b) {
		byte[] joined = new byte[a.length + b.length];
		System.arraycopy(a, 0, joined, 0, a.length);
		System.arraycopy(b, 0, joined, a.length, b.length);
		return joined;
	}

}
