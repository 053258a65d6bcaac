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
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The built-in mapper: a JSON object value becomes one Redis hash, {@code HSET key field value …}
 * followed by {@code EXPIRE key ttl} when a TTL is configured. A tombstone (null value) becomes
 * {@code DEL key}, which needs a key template that does not read the value (e.g. {@code {@key}}).
 * <p>
 * Thread-safe; create with {@link #of(JsonHashMapperConfig)}.
 */
public final class JsonHashMapper implements RecordMapper {

	private static final JsonMapper JSON = JsonMapper.builder().build();

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
			return List.of(RedisWrite.del(keyTemplate.resolve(record, Map.of())));
		}
		JsonNode root = parse(record.value());
		Map<String, String> all = new LinkedHashMap<>();
		flattener.flatten("", root, all);
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

	private static JsonNode parse(byte[] value) {
		JsonNode root;
		try {
			root = JSON.readTree(value);
		}
		catch (JacksonException ex) {
			throw new RecordMappingException("value is not valid JSON: " + ex.getOriginalMessage(), ex);
		}
		if (root == null || !root.isObject()) {
			throw new RecordMappingException("value must be a JSON object, but was "
					+ (root == null || root.isMissingNode() ? "empty" : root.getNodeType().name().toLowerCase()));
		}
		return root;
	}

	private Map<byte[], byte[]> select(Map<String, String> all) {
		Map<byte[], byte[]> fields = new LinkedHashMap<>(all.size() * 2);
		List<String> selected = config.fields();
		String separator = config.pathSeparator();
		for (Map.Entry<String, String> field : all.entrySet()) {
			String name = field.getKey();
			if (selected.isEmpty() || isSelected(name, selected, separator)) {
				fields.put(name.getBytes(StandardCharsets.UTF_8), field.getValue().getBytes(StandardCharsets.UTF_8));
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
