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
package io.sawmill.doctor.internal;

import java.util.Objects;

/**
 * One thing the doctor looked at.
 *
 * @param check a stable id, e.g. {@code cpu.throttling} or {@code redis.maxmemory-policy}
 * (docs/operations.md#doctor-findings lists them all)
 * @param verdict how bad it is
 * @param measured what was measured, with its source (file, Redis INFO field, property)
 * @param why why it matters to Sawmill
 * @param change what to change; empty when the verdict is {@link Verdict#OK}
 */
public record Finding(String check, Verdict verdict, String measured, String why, String change) {

	public Finding {
		Objects.requireNonNull(check, "check");
		Objects.requireNonNull(verdict, "verdict");
		Objects.requireNonNull(measured, "measured");
		why = why == null ? "" : why;
		change = change == null ? "" : change;
	}

	static Finding ok(String check, String measured, String why) {
		return new Finding(check, Verdict.OK, measured, why, "");
	}

	static Finding unknown(String check, String measured, String why, String change) {
		return new Finding(check, Verdict.UNKNOWN, measured, why, change);
	}

	/** One log line: verdict, check, measured value and what to change. */
	public String oneLine() {
		return verdict + " " + check + ": " + measured + (change.isEmpty() ? "" : " -> " + change);
	}
}
