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
package io.sawmill.mapping.json;

import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RecordMappingException;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.VersionGuard;
import io.sawmill.mapping.internal.FieldSelection;
import io.sawmill.mapping.internal.FlatFields;
import io.sawmill.mapping.internal.JsonFlattener;
import io.sawmill.mapping.internal.KeyTemplate;
import io.sawmill.mapping.internal.VersionSource;

/**
 * The built-in mapper: a JSON object value becomes one Redis hash,
 * {@code HSET key field value …} followed by {@code EXPIRE key ttl} when a TTL is
 * configured. A tombstone (null value) becomes {@code DEL key}, which needs a key
 * template that does not read the value (e.g. {@code {@key}}).
 * <p>
 * With a {@linkplain JsonHashMapperConfig#version() version}, each record becomes one
 * version-guarded call instead ({@link VersionGuard#upsert}, fields and TTL together; a
 * tombstone {@link VersionGuard#delete}), applied only when the record is not older than
 * the key.
 * <p>
 * Thread-safe; create with {@link #of(JsonHashMapperConfig)}.
 */
public final class JsonHashMapper implements RecordMapper {

	/** Paths whose selection and encoded name are cached ({@link FieldSelection}). */
	static final int CACHED_FIELD_NAMES = FieldSelection.CACHED_NAMES;

	private final JsonHashMapperConfig config;

	private final JsonFlattener flattener;

	private final FieldSelection selection;

	private JsonHashMapper(JsonHashMapperConfig config) {
		this.config = config;
		this.flattener = new JsonFlattener(config.pathSeparator());
		this.selection = new FieldSelection(config.fields(), config.pathSeparator());
	}

	public static JsonHashMapper of(JsonHashMapperConfig config) {
		return new JsonHashMapper(config);
	}

	public JsonHashMapperConfig config() {
		return config;
	}

	@Override
	public List<RedisWrite> map(ConsumerRecord<byte[], byte[]> record) {
		KeyTemplate keyTemplate = config.keyTemplate();
		if (record.value() == null) {
			if (keyTemplate.usesValueFields()) {
				throw new RecordMappingException("tombstone cannot be deleted: key template '" + keyTemplate.source()
						+ "' reads value fields; use {@key} in the template to support deletes");
			}
			byte[] key = keyTemplate.resolve(record, new FlatFields(false));
			VersionSource version = config.versionSource();
			return List.of(version == null ? RedisWrite.del(key)
					: VersionGuard.delete(key, version.of(record, null), config.tombstoneRetention()));
		}
		FlatFields all = flattener.flatten(record.value());
		byte[] key = keyTemplate.resolve(record, all);
		Map<byte[], byte[]> fields = selection.select(all);
		if (fields.isEmpty()) {
			return List.of();
		}
		VersionSource version = config.versionSource();
		if (version != null) {
			try {
				return List.of(VersionGuard.upsert(key, version.of(record, all), config.ttl(), fields));
			}
			// the record writes the reserved version field
			catch (IllegalArgumentException ex) {
				throw new RecordMappingException(String.valueOf(ex.getMessage()), ex);
			}
		}
		RedisWrite hset = RedisWrite.hset(key, fields);
		return config.ttl().isZero() ? List.of(hset) : List.of(hset, RedisWrite.expire(key, config.ttl()));
	}

}
