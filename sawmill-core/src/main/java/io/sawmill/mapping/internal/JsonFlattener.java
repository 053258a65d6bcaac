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
package io.sawmill.mapping.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import io.sawmill.mapping.RecordMappingException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.util.JsonRecyclerPools;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Flattens a JSON object into hash fields: nested objects become {@code parent.child}
 * fields, scalars become their text (strings without quotes), arrays are kept as compact
 * JSON text, and nulls are left out (a Redis hash has no null).
 * <p>
 * The value is read as a token stream, without building a tree. A value in which an
 * object repeats a property name, and any value that is not a valid JSON object, is read
 * again as a Jackson tree, which defines the result (a repeated name: the last value
 * wins, at the first one's position) and the error message. Both paths give the same
 * fields for the same value ({@code JsonFlattenerTests}).
 * <p>
 * Thread-safe.
 */
public final class JsonFlattener {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/**
	 * Reads one value (an array) in the middle of the stream, so what follows it is no
	 * error.
	 */
	private static final ObjectReader VALUE = JSON.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

	/**
	 * Parsers for the stream: straight from the token factory, so a record does not pay
	 * for a databind context it does not use; buffers recycled per listener thread.
	 */
	private static final JsonFactory TOKENS = JsonFactory.builder()
		.recyclerPool(JsonRecyclerPools.threadLocalPool())
		.build();

	/**
	 * Up to this many names per object, a repeated name is found by a scan rather than a
	 * hash set.
	 */
	private static final int SCANNED_NAMES = 32;

	private final String separator;

	public JsonFlattener(String separator) {
		this.separator = separator;
	}

	/**
	 * @throws RecordMappingException when the value is not valid JSON or not a JSON
	 * object
	 */
	public FlatFields flatten(byte[] json) {
		try (JsonParser parser = TOKENS.createParser(ObjectReadContext.empty(), json)) {
			JsonToken first = parser.nextToken();
			if (first != JsonToken.START_OBJECT) {
				// not an object: the tree reader tells what it is
				return flattenTree(json);
			}
			FlatFields fields = new FlatFields(false);
			if (!object(parser, "", fields) || parser.nextToken() != null) {
				// a repeated name, or content after the object: the tree decides what
				// that means
				return flattenTree(json);
			}
			return fields;
		}
		catch (JacksonException ex) {
			return flattenTree(json);
		}
	}

	/** Reads one object's properties; false when a name repeats. */
	private boolean object(JsonParser parser, String prefix, FlatFields into) {
		String[] names = new String[8];
		Set<String> manyNames = null;
		int count = 0;
		String name;
		while ((name = parser.nextName()) != null) {
			if (count < SCANNED_NAMES) {
				for (int i = 0; i < count; i++) {
					// Jackson canonicalizes names, so a repeated name is usually the same
					// instance
					if (names[i] == name || names[i].equals(name)) {
						return false;
					}
				}
				if (count == names.length) {
					names = Arrays.copyOf(names, count * 2);
				}
				names[count] = name;
			}
			else {
				if (manyNames == null) {
					manyNames = new HashSet<>(Arrays.asList(names).subList(0, count));
				}
				if (!manyNames.add(name)) {
					return false;
				}
			}
			count++;
			String path = prefix.isEmpty() ? name : prefix + separator + name;
			JsonToken token = parser.nextToken();
			switch (token) {
				case START_OBJECT -> {
					if (!object(parser, path, into)) {
						return false;
					}
				}
				case START_ARRAY -> into.add(path, VALUE.readTree(parser).toString());
				// left out of the fields: HSET has no null, and writing "null" would
				// invent a value
				case VALUE_NULL -> into.addNull(path);
				case VALUE_STRING -> into.add(path, utf8String(parser));
				case VALUE_TRUE -> into.add(path, "true");
				case VALUE_FALSE -> into.add(path, "false");
				case VALUE_NUMBER_INT -> into.add(path, integer(parser));
				case VALUE_NUMBER_FLOAT ->
					into.add(path, JsonNodeFactory.instance.numberNode(parser.getDoubleValue()).asString());
				default -> into.add(path, VALUE.readTree(parser).asString());
			}
		}
		return true;
	}

	/**
	 * The current string token as UTF-8. An ASCII string, the common case, is copied
	 * straight from the parser's buffer, without the {@code String}
	 * {@link JsonParser#getString()} would build; any other goes through {@code String}
	 * as before, so the bytes are exactly the tree reading's.
	 */
	private static byte[] utf8String(JsonParser parser) {
		char[] chars = parser.getStringCharacters();
		int offset = parser.getStringOffset();
		int length = parser.getStringLength();
		byte[] bytes = new byte[length];
		for (int i = 0; i < length; i++) {
			char c = chars[offset + i];
			if (c >= 0x80) {
				return new String(chars, offset, length).getBytes(StandardCharsets.UTF_8);
			}
			bytes[i] = (byte) c;
		}
		return bytes;
	}

	/**
	 * The text the tree's integer node would give (e.g. {@code -0} becomes {@code 0}).
	 */
	private static String integer(JsonParser parser) {
		return switch (parser.getNumberType()) {
			case INT -> Integer.toString(parser.getIntValue());
			case LONG -> Long.toString(parser.getLongValue());
			default -> parser.getBigIntegerValue().toString();
		};
	}

	/**
	 * The tree reading: for values the stream does not take, and as the reference in
	 * tests.
	 */
	public FlatFields flattenTree(byte[] json) {
		JsonNode root;
		try {
			root = JSON.readTree(json);
		}
		catch (JacksonException ex) {
			throw new RecordMappingException("value is not valid JSON: " + ex.getOriginalMessage(), ex);
		}
		return flattenTree(root);
	}

	/**
	 * Flattens a value already read as a tree (a deserializer's {@code JsonNode}, or a
	 * {@code Map} or Avro record converted to one).
	 * @throws RecordMappingException when the value is not an object
	 */
	public FlatFields flattenTree(JsonNode root) {
		if (root == null || !root.isObject()) {
			throw notAnObject(root == null || root.isMissingNode() ? "empty" : root.getNodeType().name().toLowerCase());
		}
		FlatFields fields = new FlatFields(true);
		flatten("", root, fields);
		return fields;
	}

	public void flatten(String path, JsonNode node, FlatFields into) {
		if (node.isObject()) {
			for (Map.Entry<String, JsonNode> child : node.properties()) {
				flatten(path.isEmpty() ? child.getKey() : path + separator + child.getKey(), child.getValue(), into);
			}
		}
		else if (node.isNull()) {
			into.addNull(path); // left out, as above
		}
		else if (node.isMissingNode()) {
			// nothing there
		}
		else if (node.isArray()) {
			into.add(path, node.toString());
		}
		else {
			into.add(path, node.asString());
		}
	}

	private static RecordMappingException notAnObject(String kind) {
		return new RecordMappingException("value must be a JSON object, but was " + kind);
	}

}
