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

import java.util.List;

import io.sawmill.bench.e2e.measure.BatchRecorder;
import io.sawmill.bench.e2e.measure.RedisCeiling;
import io.sawmill.bench.e2e.measure.SequentialSample;
import io.sawmill.bench.e2e.workload.Endpoint;

/**
 * One line of the result table: a strategy at one endpoint (an RTT to one server, or a
 * cluster) and batch size.
 *
 * @param cluster whether the endpoint is a Redis Cluster (then {@code rttMs} is 0:
 * directly)
 * @param idle per-batch timings under the idle load, {@code null} when not run
 * @param busy per-batch timings while draining the backlog, {@code null} when not run
 * @param steady per-batch timings under the steady load (half the busy throughput),
 * {@code null} when not run
 * @param sequential the measured sample of strategy 1, whose other numbers are
 * extrapolated from it
 * @param fullGcs full collections during the busy run (whole benchmark JVM)
 * @param peakHeapBytes peak heap used during the busy run (whole JVM: broker, producer
 * and consumer)
 * @param ceiling the Redis ceiling measured right before the busy run, {@code null} when
 * not measured
 */
public record Row(String strategy, double rttMs, boolean cluster, int batchSize, BatchRecorder.Summary idle,
		BatchRecorder.Summary busy, BatchRecorder.Summary steady, SequentialSample.Result sequential, boolean verified,
		String verification, long fullGcs, long peakHeapBytes, RedisCeiling.Result ceiling) {

	/** Every strategy a row can be of, in the order of the table and the plots. */
	public static final List<String> STRATEGIES = List.of("sequential", "template", "sawmill");

	/**
	 * The ceiling to compare this row with: the one measured next to it, else the run's
	 * opening one.
	 */
	RedisCeiling.Result ceilingOr(RedisCeiling.Result opening) {
		return ceiling != null ? ceiling : opening;
	}

	boolean extrapolated() {
		return sequential != null;
	}

	/**
	 * Records per second while draining the backlog (extrapolated for the sequential
	 * strategy).
	 */
	double recordsPerSecond() {
		if (sequential != null) {
			return sequential.recordsPerSecond();
		}
		return busy == null ? 0 : busy.recordsPerSecond();
	}

	/**
	 * The consumer's CPU nanoseconds per record while draining (the sample's for the
	 * sequential strategy), NaN if unmeasured.
	 */
	double cpuNanosPerRecord() {
		if (sequential != null) {
			return sequential.cpuNanosPerRecord();
		}
		return busy == null ? Double.NaN : busy.cpuNanosPerRecord();
	}

	/** "direct", "0.1 ms", "1 ms" or "cluster". */
	String endpointLabel() {
		return Endpoint.label(rttMs, cluster);
	}

	/**
	 * The busy batches' Redis writes (for the sequential strategy, extrapolated: one
	 * batch's worth of round trips).
	 */
	BatchRecorder.Percentiles busyWrite() {
		return sequential != null ? extrapolatedBatch() : busy == null ? null : busy.write();
	}

	/**
	 * The busy batches' poll-to-commit spans (extrapolated as {@link #busyWrite()} for
	 * the sequential strategy).
	 */
	BatchRecorder.Percentiles busyPollToCommit() {
		return sequential != null ? extrapolatedBatch() : busy == null ? null : busy.pollToCommit();
	}

	private BatchRecorder.Percentiles extrapolatedBatch() {
		long batch = sequential.batchNanos(batchSize);
		return new BatchRecorder.Percentiles(0, batch, batch, batch);
	}
}
