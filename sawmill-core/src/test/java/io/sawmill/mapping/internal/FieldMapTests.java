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
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

class FieldMapTests {

	@Test
	void shouldBehaveAsALinkedHashMapOfTheSameArrays() {
		behaveAsALinkedHashMap(6, 12); // scanned
	}

	@Test
	void shouldBehaveAsALinkedHashMapOfTheSameArraysBeyondTheScannedFields() {
		behaveAsALinkedHashMap(FieldMap.SCANNED * 3, FieldMap.SCANNED * 5); // indexed
	}

	private static void behaveAsALinkedHashMap(int nameCount, int maxAdds) {
		Random random = new Random(7);
		byte[][] names = new byte[nameCount][];
		for (int i = 0; i < names.length; i++) {
			// names alike: equal, but other arrays
			names[i] = ("f" + (i % 4)).getBytes(StandardCharsets.UTF_8);
		}
		for (int trial = 0; trial < 500; trial++) {
			FieldMap fields = new FieldMap(random.nextInt(4));
			Map<byte[], byte[]> expected = new LinkedHashMap<>();
			for (int i = 0, n = 1 + random.nextInt(maxAdds); i < n; i++) {
				byte[] name = names[random.nextInt(names.length)];
				byte[] value = new byte[] { (byte) i };
				fields.add(name, value);
				expected.put(name, value);
			}

			assertThat(fields).isEqualTo(expected).hasSameHashCodeAs(expected).hasSize(expected.size());
			assertThat(new ArrayList<>(fields.keySet())).containsExactlyElementsOf(expected.keySet());
			assertThat(new ArrayList<>(fields.values())).containsExactlyElementsOf(expected.values());
			List<byte[]> visited = new ArrayList<>();
			fields.forEach((name, value) -> {
				visited.add(name);
				assertThat(value).isSameAs(expected.get(name));
			});
			assertThat(visited).containsExactlyElementsOf(expected.keySet());
			for (int i = 0; i < fields.size(); i++) {
				assertThat(fields.get(fields.name(i))).isSameAs(fields.value(i));
			}
			for (byte[] name : names) {
				assertThat(fields.containsKey(name)).isEqualTo(expected.containsKey(name));
				assertThat(fields.get(name)).isSameAs(expected.get(name));
			}
		}
	}

	@Test
	void shouldTellMapsOfTheSameNameArraysInTheSameOrder() {
		byte[] a = "a".getBytes(StandardCharsets.UTF_8);
		byte[] b = "b".getBytes(StandardCharsets.UTF_8);

		assertThat(of(a, b).sameNames(of(a, b))).isTrue();
		assertThat(of(a, b).sameNames(of(b, a))).isFalse();
		assertThat(of(a, b).sameNames(of(a))).isFalse();
		assertThat(of(a, b).sameNames(of(a, "b".getBytes(StandardCharsets.UTF_8)))).isFalse();
	}

	@Test
	void shouldBeReadOnly() {
		FieldMap fields = of("a".getBytes(StandardCharsets.UTF_8));

		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> fields.put(new byte[0], new byte[0]));
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(fields::clear);
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> fields.entrySet().iterator().next().setValue(new byte[0]));
	}

	private static FieldMap of(byte[]... names) {
		FieldMap fields = new FieldMap(names.length);
		for (byte[] name : names) {
			fields.add(name, name);
		}
		return fields;
	}

}
