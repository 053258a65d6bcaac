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

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashSet;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import io.sawmill.bench.e2e.measure.BatchRecorder;
import io.sawmill.bench.e2e.measure.RedisCeiling;

/**
 * The PNG plots of a run: P99 per batch vs batch size for each endpoint (an RTT, or the
 * cluster: the batch's Redis write, idle and busy, and its poll-to-commit span, busy),
 * and throughput per strategy per endpoint.
 */
public final class Plots {

	private Plots() {
	}

	/** Writes the plots into {@code dir} and returns their file names. */
	public static List<String> write(Path dir, List<Row> rows, RedisCeiling.Result ceiling) throws IOException {
		System.setProperty("java.awt.headless", "true");
		List<String> files = new ArrayList<>();
		for (String endpoint : new LinkedHashSet<>(rows.stream().map(Row::endpointLabel).toList())) {
			XYSeriesCollection data = new XYSeriesCollection();
			for (String strategy : Row.STRATEGIES) {
				boolean sequential = strategy.equals("sequential");
				XYSeries busy = new XYSeries(strategy + (sequential ? " (extrapolated)" : " busy, write"));
				XYSeries idle = new XYSeries(strategy + " idle, write");
				XYSeries busyCommit = new XYSeries(strategy + " busy, poll→commit");
				for (Row row : rows) {
					if (row.strategy().equals(strategy) && row.endpointLabel().equals(endpoint)) {
						add(busy, row.batchSize(), row.busyWrite());
						add(idle, row.batchSize(), row.idle() == null ? null : row.idle().write());
						if (!sequential) {
							add(busyCommit, row.batchSize(), row.busyPollToCommit());
						}
					}
				}
				for (XYSeries series : List.of(busy, idle, busyCommit)) {
					if (!series.isEmpty()) {
						data.addSeries(series);
					}
				}
			}
			JFreeChart chart = ChartFactory.createXYLineChart("Per-batch P99 vs batch size, " + endpoint,
					"batch size (records)", "P99 per batch (ms, log scale)", data, PlotOrientation.VERTICAL, true,
					false, false);
			XYPlot plot = chart.getXYPlot();
			LogAxis log = new LogAxis("P99 per batch (ms, log scale)");
			log.setSmallestValue(0.1);
			log.setNumberFormatOverride(new java.text.DecimalFormat("#,##0.#"));
			plot.setRangeAxis(log);
			plot.setBackgroundPaint(Color.WHITE);
			plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
			plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
			org.jfree.chart.renderer.xy.XYLineAndShapeRenderer renderer = new org.jfree.chart.renderer.xy.XYLineAndShapeRenderer();
			for (int i = 0; i < data.getSeriesCount(); i++) {
				renderer.setSeriesStroke(i, new BasicStroke(2f));
			}
			plot.setRenderer(renderer);
			String name = "p99-vs-batch-" + endpoint.replace(" ", "") + ".png";
			ChartUtils.saveChartAsPNG(dir.resolve(name).toFile(), chart, 800, 500);
			files.add(name);
		}

		DefaultCategoryDataset throughput = new DefaultCategoryDataset();
		for (Row row : rows) {
			String series = row.strategy().equals("sequential") ? "sequential (extrapolated)"
					: row.strategy() + " b=" + row.batchSize();
			throughput.addValue(row.recordsPerSecond(), series, row.endpointLabel());
		}
		JFreeChart bars = ChartFactory.createBarChart("Throughput draining the backlog, per strategy and endpoint",
				"Redis: RTT to one server, or the cluster", "records/s", throughput, PlotOrientation.VERTICAL, true,
				false, false);
		CategoryPlot plot = bars.getCategoryPlot();
		plot.setBackgroundPaint(Color.WHITE);
		plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
		if (ceiling != null) {
			ValueMarker marker = new ValueMarker(ceiling.recordsPerSecond(), Color.RED, new BasicStroke(2f));
			marker.setLabel(String.format("Redis ceiling %,.0f records/s", ceiling.recordsPerSecond()));
			marker.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
			marker.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
			plot.addRangeMarker(marker);
			plot.getRangeAxis()
				.setUpperBound(1.1 * Math.max(ceiling.recordsPerSecond(),
						rows.stream().mapToDouble(Row::recordsPerSecond).max().orElse(0)));
		}
		ChartUtils.saveChartAsPNG(dir.resolve("throughput.png").toFile(), bars, 900, 500);
		files.add("throughput.png");
		return files;
	}

	private static void add(XYSeries series, int batchSize, BatchRecorder.Percentiles percentiles) {
		if (percentiles != null && percentiles.p99() > 0) {
			series.add(batchSize, percentiles.p99() / 1e6);
		}
	}

}
