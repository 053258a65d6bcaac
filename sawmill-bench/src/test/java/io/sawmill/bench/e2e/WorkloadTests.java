package io.sawmill.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;

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
		// 250 records over 100 ids: id 10 was written by records 10, 110 and 210; id 60 by 60 and 160
		assertThat(workload.expectedHash(10, 250)).isEqualTo(workload.hash(210));
		assertThat(workload.expectedHash(60, 250)).isEqualTo(workload.hash(160));
		assertThat(workload.hash(210)).isNotEqualTo(workload.hash(10));
		assertThat(workload.distinctKeys(250)).isEqualTo(100);
		assertThat(workload.distinctKeys(40)).isEqualTo(40);
	}
}
