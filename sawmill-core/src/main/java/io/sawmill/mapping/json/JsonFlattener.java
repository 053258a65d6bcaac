package io.sawmill.mapping.json;

import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * Flattens a JSON object into hash fields: nested objects become {@code parent.child} fields,
 * scalars become their text (strings without quotes), arrays are kept as compact JSON text, and
 * nulls are left out (a Redis hash has no null).
 */
final class JsonFlattener {

	private final String separator;

	JsonFlattener(String separator) {
		this.separator = separator;
	}

	void flatten(String path, JsonNode node, Map<String, String> into) {
		if (node.isObject()) {
			for (Map.Entry<String, JsonNode> child : node.properties()) {
				flatten(path.isEmpty() ? child.getKey() : path + separator + child.getKey(), child.getValue(), into);
			}
		}
		else if (node.isNull() || node.isMissingNode()) {
			// left out: HSET has no null, and writing "null" would invent a value
		}
		else if (node.isArray()) {
			into.put(path, node.toString());
		}
		else {
			into.put(path, node.asString());
		}
	}
}
