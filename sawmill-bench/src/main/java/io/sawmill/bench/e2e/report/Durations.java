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

import java.util.Locale;

/**
 * How the reports and the console write a span of time: milliseconds, microseconds per
 * record, seconds or minutes.
 */
public final class Durations {

	private Durations() {
	}

	/** CPU nanoseconds per record as microseconds, "n/a" when not measured. */
	public static String micros(double nanos) {
		return Double.isNaN(nanos) ? "n/a" : String.format(Locale.ROOT, "%.2f µs", nanos / 1e3);
	}

	public static String ms(long nanos) {
		double ms = nanos / 1e6;
		return ms >= 100 ? String.format(Locale.ROOT, "%,.0f ms", ms) : String.format(Locale.ROOT, "%.1f ms", ms);
	}

	public static String duration(double seconds) {
		return seconds >= 120 ? String.format(Locale.ROOT, "%.1f min", seconds / 60)
				: String.format(Locale.ROOT, "%.1f s", seconds);
	}

}
