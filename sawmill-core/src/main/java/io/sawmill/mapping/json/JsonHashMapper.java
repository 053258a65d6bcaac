package io.sawmill.mapping.json;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RecordMappingException;
import io.sawmill.mapping.RedisWrite;

/**
 * The built-in mapper: a JSON object value becomes one Redis hash, {@code HSET key field value …}
 * followed by {@code EXPIRE key ttl} when a TTL is configured. A tombstone (null value) becomes
 * {@code DEL key}, which needs a key template that does not read the value (e.g. {@code {@key}}).
 * <p>
 * Thread-safe; create with {@link #of(JsonHashMapperConfig)}.
 */
public final class JsonHashMapper implements RecordMapper {

	/**
	 * Paths whose answer {@link #fieldName} keeps. A value whose names vary per record (a map keyed
	 * by ids, say) stops filling the cache there and has its names encoded per record.
	 */
	static final int CACHED_FIELD_NAMES = 1024;

	private static final byte[] NOT_SELECTED = new byte[0];

	private final JsonHashMapperConfig config;
	private final JsonFlattener flattener;
	private final Map<String, byte[]> fieldNames = new ConcurrentHashMap<>();

	private JsonHashMapper(JsonHashMapperConfig config) {
		this.config = config;
		this.flattener = new JsonFlattener(config.pathSeparator());
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
			return List.of(RedisWrite.del(keyTemplate.resolve(record, new FlatFields(false))));
		}
		FlatFields all = flattener.flatten(record.value());
		byte[] key = keyTemplate.resolve(record, all);
		Map<byte[], byte[]> fields = select(all);
		if (fields.isEmpty()) {
			return List.of();
		}
		RedisWrite hset = RedisWrite.hset(key, fields);
		return config.ttl().isZero() ? List.of(hset) : List.of(hset, RedisWrite.expire(key, config.ttl()));
	}

	private Map<byte[], byte[]> select(FlatFields all) {
		Map<byte[], byte[]> fields = new LinkedHashMap<>((int) (all.size() / 0.75f) + 1);
		for (int i = 0; i < all.size(); i++) {
			byte[] name = fieldName(all.path(i));
			if (name != NOT_SELECTED) {
				fields.put(name, all.value(i));
			}
		}
		return fields;
	}

	/**
	 * The field's name as sent to Redis, or {@link #NOT_SELECTED}. Records of a topic repeat the same
	 * paths, so the answer is kept for up to {@link #CACHED_FIELD_NAMES} of them and each record's
	 * writes share the same name arrays, which nothing changes ({@link RedisWrite}).
	 */
	private byte[] fieldName(String path) {
		byte[] name = fieldNames.get(path);
		if (name == null) {
			name = isSelected(path, config.fields(), config.pathSeparator()) ? path.getBytes(StandardCharsets.UTF_8)
					: NOT_SELECTED;
			if (fieldNames.size() < CACHED_FIELD_NAMES) {
				fieldNames.putIfAbsent(path, name);
			}
		}
		return name;
	}

	private static boolean isSelected(String name, List<String> selected, String separator) {
		if (selected.isEmpty()) {
			return true;
		}
		for (String wanted : selected) {
			if (name.equals(wanted) || (name.startsWith(wanted) && name.startsWith(separator, wanted.length()))) {
				return true;
			}
		}
		return false;
	}
}
