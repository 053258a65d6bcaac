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
package io.sawmill.bench.e2e.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

class WorkloadTests {

	private final Workload workload = new Workload(5, 20, 100);

	@Test
	void shouldWriteAnIdAndNFieldsOfExactlyTheConfiguredSize() {
		Map<String, String> hash = workload.hash(1234);

		assertThat(hash).containsOnlyKeys("id", "f1", "f2", "f3", "f4", "f5").containsEntry("id", "34");
		assertThat(hash.values().stream().skip(1)).allSatisfy(value -> assertThat(value).hasSize(20));
	}

	@Test
	void shouldProduceJsonThatParsesToTheSameHash() {
		Map<?, ?> parsed = JsonMapper.builder().build().readValue(workload.json(1234), Map.class);

		assertThat(parsed).isEqualTo(workload.hash(1234));
		assertThat(new String(workload.kafkaKey(1234), StandardCharsets.US_ASCII)).isEqualTo("34");
	}

	@Test
	void shouldExpectTheLastRecordOfEachKeyToWin() {
		// 250 records over 100 ids: id 10 was written by records 10, 110 and 210; id 60
		// by 60 and 160
		assertThat(workload.expectedHash(10, 250)).isEqualTo(workload.hash(210));
		assertThat(workload.expectedHash(60, 250)).isEqualTo(workload.hash(160));
		assertThat(workload.hash(210)).isNotEqualTo(workload.hash(10));
		assertThat(workload.distinctKeys(250)).isEqualTo(100);
		assertThat(workload.distinctKeys(40)).isEqualTo(40);
	}

	@Test
	void shouldCarryEachKeysVersionAsAJsonNumberWhenVersioned() {
		Workload versioned = new Workload(2, 20, 100, new KeySequence.Uniform(100), true);

		Map<?, ?> parsed = JsonMapper.builder().build().readValue(versioned.json(234), Map.class);

		// record 234 is id 34's third: versions 0 (record 34), 1 (134), 2 (234)
		assertThat(parsed.get("version")).isEqualTo(2);
		assertThat(versioned.hash(234)).containsEntry("version", "2").containsEntry("id", "34");
		assertThat(new String(versioned.json(234), StandardCharsets.US_ASCII))
			.startsWith("{\"id\":\"34\",\"version\":2,\"f1\":\"");
		// without a version field the records are those of the main table, byte for byte
		assertThat(workload.json(234))
			.isEqualTo(new Workload(5, 20, 100, new KeySequence.Uniform(100), false).json(234));
	}

	@Test
	void shouldExpectTheLastRecordOfAHotKeyAndCountOnlyTheKeysWritten() {
		Workload hot = new Workload(2, 20, 1_000, new ZipfKeys(1_000, 1.1), true);
		long records = 10_000;
		Workload.Written written = hot.written(records);
		long last = records - 1;
		while (hot.id(last) != 0) {
			last--;
		}

		assertThat(written.hottest()).isZero();
		assertThat(written.lastRecord(0)).isEqualTo(last);
		assertThat(hot.expectedHash(0, records)).isEqualTo(hot.hash(last))
			.containsEntry("version", Long.toString(written.hottestRecords() - 1));
		assertThat(hot.distinctKeys(records)).isEqualTo(written.ids().length).isLessThan(1_000);
		assertThat(written.ids()).isSorted();
		assertThat(IntStream.of(written.ids())).allMatch(id -> written.lastRecord(id) >= 0);
	}

	@Test
	void shouldKnowItsOwnKeysFromOthers() {
		assertThat(workload.isKey("rec:12")).isTrue();
		assertThat(workload.isKey("rec:")).isFalse();
		assertThat(workload.isKey("rec:12:version")).isFalse();
		assertThat(workload.isKey("other:12")).isFalse();
	}

}
