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
package io.sawmill.bench.e2e.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sawmill.bench.e2e.measure.BatchRecorder;

class PlotsTests {

	@Test
	void shouldPlotTheClusterApartFromTheSingleServerReachedDirectly(@TempDir Path dir) throws Exception {
		BatchRecorder.Percentiles write = new BatchRecorder.Percentiles(10, 1_000_000, 2_000_000, 3_000_000);
		BatchRecorder.Summary busy = new BatchRecorder.Summary(10, 10_000, write, write, 1_000_000_000L,
				List.of(10_000.0), List.of());
		Row direct = new Row("sawmill", 0, false, 1_000, null, busy, null, null, true, "OK", 0, 0, null);
		Row cluster = new Row("sawmill", 0, true, 1_000, null, busy, null, null, true, "OK", 0, 0, null);

		assertThat(Plots.write(dir, List.of(direct, cluster), null)).containsExactly("p99-vs-batch-direct.png",
				"p99-vs-batch-cluster.png", "throughput.png");
		assertThat(dir.resolve("p99-vs-batch-cluster.png")).isNotEmptyFile();
	}

}
