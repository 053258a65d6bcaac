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

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The streaming reading gives exactly the fields of the tree reading (the behaviour the
 * mapper had before it streamed), for every shape of value the mapper documents and for
 * the odd ones.
 */
class JsonFlattenerTests {

	private final JsonFlattener flattener = new JsonFlattener(".");

	/**
	 * Path → value, the value's bytes one char each (ISO-8859-1), so equal entries mean
	 * equal bytes.
	 */
	private static List<Map.Entry<String, String>> entries(FlatFields fields) {
		List<Map.Entry<String, String>> entries = new ArrayList<>();
		for (int i = 0; i < fields.size(); i++) {
			entries.add(Map.entry(fields.path(i), new String(fields.value(i), StandardCharsets.ISO_8859_1)));
		}
		return entries;
	}

	private static byte[] utf8(String json) {
		return json.getBytes(StandardCharsets.UTF_8);
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"id\":\"a1\",\"f1\":\"x\",\"f2\":\"y\"}",
			"{\"name\":\"Ann\",\"address\":{\"city\":\"Oslo\",\"geo\":{\"lat\":59.9,\"lon\":10.7}}}",
			"{\"tags\":[\"a\",\"b\"],\"items\":[{\"sku\":1},{\"sku\":2.50}],\"empty\":[],\"nested\":[[1,[2]],null]}",
			"{\"zero\":0,\"minusZero\":-0,\"int\":-42,\"long\":9223372036854775807,\"big\":123456789012345678901234567890}",
			"{\"one\":1.0,\"oneFifty\":1.50,\"exp\":1e3,\"small\":-1.5E-7,\"tenth\":0.1,\"pi\":3.14159265358979323846,\"huge\":1e400}",
			"{\"escaped\":\"say \\\"hi\\\"\\n\\ttab\",\"unicode\":\"bl\\u00e5b\\u00e6r\",\"raw\":\"blåbær ✓\",\"blank\":\"\"}",
			"{\"astral\":\"\\ud83d\\ude00 😀\",\"lone\":\"a\\ud800b\",\"control\":\"\\u0000\\u007f\\u0080\"}",
			"{\"t\":true,\"f\":false,\"n\":null,\"o\":{\"n\":null,\"e\":{}},\"e\":{}}",
			"  {\n \"spaced\" : \"out\" ,\n \"deep\":{\"a\":{\"b\":{\"c\":{\"d\":\"e\"}}}} }\n ", "{}" })
	void shouldGiveTheFieldsOfTheTreeReading(String json) {
		FlatFields streamed = flattener.flatten(utf8(json));

		assertThat(streamed.readAsTree()).as("read as a stream").isFalse();
		assertThat(entries(streamed)).isEqualTo(entries(flattener.flattenTree(utf8(json))));
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"a\":1,\"a\":2}", "{\"a\":{\"b\":1},\"a\":2}", "{\"a\":1,\"b\":2,\"a\":null}",
			"{\"o\":{\"x\":1,\"x\":{\"y\":2}}}" })
	void shouldReadRepeatedNamesAsTheTreeDoes(String json) {
		FlatFields fields = flattener.flatten(utf8(json));

		assertThat(fields.readAsTree()).isTrue();
		assertThat(entries(fields)).isEqualTo(entries(flattener.flattenTree(utf8(json))));
	}

	@Test
	void shouldStreamAnObjectWithManyNames() {
		StringBuilder json = new StringBuilder("{\"f0\":0");
		for (int i = 1; i < 100; i++) {
			json.append(",\"f").append(i).append("\":").append(i);
		}
		json.append('}');

		FlatFields fields = flattener.flatten(utf8(json.toString()));

		assertThat(fields.readAsTree()).isFalse();
		assertThat(entries(fields)).isEqualTo(entries(flattener.flattenTree(utf8(json.toString()))));
	}

	@Test
	void shouldFindARepeatedNameAmongManyNames() {
		StringBuilder json = new StringBuilder("{");
		for (int i = 0; i < 100; i++) {
			json.append("\"f").append(i).append("\":").append(i).append(',');
		}
		json.append("\"f7\":\"again\"}");

		FlatFields fields = flattener.flatten(utf8(json.toString()));

		assertThat(fields.readAsTree()).isTrue();
		assertThat(fields.size()).isEqualTo(100);
		assertThat(fields.get("f7")).asString(StandardCharsets.UTF_8).isEqualTo("again");
	}

	@Test
	void shouldKeepTheLastOfRepeatedNames() {
		assertThat(entries(flattener.flatten(utf8("{\"a\":1,\"b\":0,\"a\":2}")))).containsExactly(Map.entry("a", "2"),
				Map.entry("b", "0"));
	}

}
