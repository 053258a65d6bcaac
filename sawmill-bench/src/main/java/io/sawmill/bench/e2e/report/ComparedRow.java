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

import java.util.Optional;

/**
 * A row of a comparison of Sawmill variants ({@link CapabilityRow}, {@link RouteRow}), as
 * far as judging its ratio to the baseline variant of its cell needs it.
 */
interface ComparedRow {

	/** Whether the variant ran and has numbers. */
	boolean measured();

	/** Why the variant did not run, or null. */
	String notRun();

	/**
	 * Whether every drain verified (a variant that did not run for lack of a property
	 * counts as verified).
	 */
	boolean verified();

	/**
	 * Why the ratio of {@code variant} to {@code baseline} cannot be judged — it did not
	 * run, the baseline did not, or a run did not verify — or null when it can.
	 * @param baselineName the baseline variant's label, e.g. "plain"
	 */
	static String whyNotJudged(ComparedRow variant, Optional<? extends ComparedRow> baseline, String baselineName) {
		if (!variant.measured()) {
			return variant.notRun();
		}
		if (baseline.isEmpty() || !baseline.get().measured()) {
			return "not judged: " + baselineName + " " + baseline.map(ComparedRow::notRun).orElse("not run");
		}
		if (!variant.verified() || !baseline.get().verified()) {
			return "not judged: a run did not verify";
		}
		return null;
	}

	/**
	 * The 8-character prefix of a ratio's console line, as the main targets print: "MET",
	 * "NOT MET", else "INFO".
	 */
	static String linePrefix(String verdict) {
		return verdict.equals("MET") ? "MET     " : verdict.equals("NOT MET") ? "NOT MET " : "INFO    ";
	}

}
