package io.sawmill.mapping.json;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

	private final JsonHashMapperConfig config;
	private final JsonFlattener flattener;

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
		List<RedisWrite> writes = new ArrayList<>(2);
		writes.add(RedisWrite.hset(key, fields));
		if (!config.ttl().isZero()) {
			writes.add(RedisWrite.expire(key, config.ttl()));
		}
		return writes;
	}

	private Map<byte[], byte[]> select(FlatFields all) {
		Map<byte[], byte[]> fields = new LinkedHashMap<>((int) (all.size() / 0.75f) + 1);
		List<String> selected = config.fields();
		String separator = config.pathSeparator();
		for (int i = 0; i < all.size(); i++) {
			String name = all.path(i);
			if (selected.isEmpty() || isSelected(name, selected, separator)) {
				fields.put(name.getBytes(StandardCharsets.UTF_8), all.value(i).getBytes(StandardCharsets.UTF_8));
			}
		}
		return fields;
	}

	private static boolean isSelected(String name, List<String> selected, String separator) {
		for (String wanted : selected) {
			if (name.equals(wanted) || (name.startsWith(wanted) && name.startsWith(separator, wanted.length()))) {
				return true;
			}
		}
		return false;
	}
}
