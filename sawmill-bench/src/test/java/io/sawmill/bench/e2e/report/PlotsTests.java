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
		BatchRecorder.Summary busy = new BatchRecorder.Summary(10, 10_000, write, write, 1_000_000_000L, List.of(10_000.0),
				List.of());
		Row direct = new Row("sawmill", 0, false, 1_000, null, busy, null, null, true, "OK", 0, 0, null);
		Row cluster = new Row("sawmill", 0, true, 1_000, null, busy, null, null, true, "OK", 0, 0, null);

		assertThat(Plots.write(dir, List.of(direct, cluster), null)).containsExactly("p99-vs-batch-direct.png",
				"p99-vs-batch-cluster.png", "throughput.png");
		assertThat(dir.resolve("p99-vs-batch-cluster.png")).isNotEmptyFile();
	}
}
