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
package io.sawmill.bench.e2e.measure;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.cumulative.CumulativeDistributionSummary;
import io.micrometer.core.instrument.cumulative.CumulativeTimer;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.pause.PauseDetector;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * A meter registry added to the Sawmill app under test that hands every sample of
 * Sawmill's own per-batch meters ({@code sawmill.batch.duration}: poll to commit;
 * {@code sawmill.batch.records}; {@code sawmill.redis.pipeline.duration}: the write, from
 * sending a batch's first command to the arrival of its last reply) to a
 * {@link BatchRecorder}, so the benchmark reports exact percentiles rather than histogram
 * estimates. The data path is not touched: the app records these meters anyway.
 */
public final class CapturingMeterRegistry extends SimpleMeterRegistry {

	private final BatchRecorder recorder;

	private final ThreadLocal<long[]> pendingDuration = ThreadLocal.withInitial(() -> new long[] { -1 });

	public CapturingMeterRegistry(BatchRecorder recorder) {
		super(SimpleConfig.DEFAULT, Clock.SYSTEM);
		this.recorder = recorder;
	}

	@Override
	protected Timer newTimer(Meter.Id id, DistributionStatisticConfig config, PauseDetector pauseDetector) {
		if (id.getName().equals("sawmill.redis.pipeline.duration")) {
			return new CumulativeTimer(id, clock, config, pauseDetector, getBaseTimeUnit(), false) {
				@Override
				protected void recordNonNegative(long amount, TimeUnit unit) {
					super.recordNonNegative(amount, unit);
					recorder.recordWrite(unit.toNanos(amount));
				}
			};
		}
		if (!id.getName().equals("sawmill.batch.duration")) {
			return super.newTimer(id, config, pauseDetector);
		}
		return new CumulativeTimer(id, clock, config, pauseDetector, getBaseTimeUnit(), false) {
			@Override
			protected void recordNonNegative(long amount, TimeUnit unit) {
				super.recordNonNegative(amount, unit);
				pendingDuration.get()[0] = unit.toNanos(amount);
			}
		};
	}

	/**
	 * SawmillMetrics.batchCommitted records the duration, then the record count, on the
	 * listener thread.
	 */
	@Override
	protected DistributionSummary newDistributionSummary(Meter.Id id, DistributionStatisticConfig config,
			double scale) {
		if (!id.getName().equals("sawmill.batch.records")) {
			return super.newDistributionSummary(id, config, scale);
		}
		return new CumulativeDistributionSummary(id, clock, config, scale, false) {
			@Override
			protected void recordNonNegative(double amount) {
				super.recordNonNegative(amount);
				long[] duration = pendingDuration.get();
				if (duration[0] >= 0) {
					recorder.record(System.nanoTime(), duration[0], (int) amount);
					duration[0] = -1;
				}
			}
		};
	}

}
