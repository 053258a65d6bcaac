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
import io.sawmill.bench.e2e.measure.CommandStats;
import io.sawmill.bench.e2e.workload.Capability;
import io.sawmill.bench.e2e.workload.Endpoint;

/**
 * One line of the capability comparison: Sawmill with one capability variant on one
 * workload, at one endpoint and batch size, over its busy drains.
 *
 * @param workload "uniform" or "zipf"
 * @param cluster whether the endpoint is a Redis Cluster (then {@code rttMs} is 0)
 * @param records the records of the backlog each drain wrote
 * @param busy the drains' batches, {@code null} when the variant did not run
 * @param commandsPerRecord per drain, the Redis commands counted over it ÷ the backlog
 * @param commands the calls per command of the median drain (by commands per record),
 * {@code null} when none
 * @param fullGcs full collections during the drains (whole benchmark JVM)
 * @param peakHeapBytes peak heap used during the drains (whole benchmark JVM)
 * @param notRun why the variant did not run ("not available in this build (…)", or how it
 * failed), or {@code null}
 */
public record CapabilityRow(String workload, Capability capability, double rttMs, boolean cluster, int batchSize,
		long records, BatchRecorder.Summary busy, List<Double> commandsPerRecord, CommandStats.Counts commands,
		boolean verified, String verification, long fullGcs, long peakHeapBytes, String notRun) implements ComparedRow {

	public CapabilityRow {
		commandsPerRecord = List.copyOf(commandsPerRecord);
	}

	/**
	 * A variant that did not run, and why.
	 * @param failed whether that fails the run (it failed to start), rather than this
	 * build lacking it
	 */
	public static CapabilityRow notRun(String workload, Capability capability, double rttMs, boolean cluster,
			int batchSize, String why, boolean failed) {
		return new CapabilityRow(workload, capability, rttMs, cluster, batchSize, 0, null, List.of(), null, !failed,
				why, 0, 0, why);
	}

	@Override
	public boolean measured() {
		return busy != null && notRun == null;
	}

	/** The median drain's records per second, NaN when not measured. */
	double recordsPerSecond() {
		return measured() ? busy.recordsPerSecond() : Double.NaN;
	}

	/** The median of the drains' Redis commands per record, NaN when not measured. */
	double medianCommandsPerRecord() {
		return commandsPerRecord.isEmpty() ? Double.NaN : BatchRecorder.median(commandsPerRecord);
	}

	/**
	 * As a row of the main table (Sawmill's busy drains only), for the columns they
	 * share.
	 */
	Row asRow() {
		return new Row("sawmill", rttMs, cluster, batchSize, null, busy, null, null, verified, verification, fullGcs,
				peakHeapBytes, null);
	}

	String endpointLabel() {
		return Endpoint.label(rttMs, cluster);
	}

	/** The same cell with another capability, as the ratios pair them. */
	boolean sameCellAs(CapabilityRow other) {
		return workload.equals(other.workload) && rttMs == other.rttMs && cluster == other.cluster
				&& batchSize == other.batchSize;
	}
}
