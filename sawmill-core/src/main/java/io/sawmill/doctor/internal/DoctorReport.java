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

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The doctor's findings, in the order the checks ran (host, Redis, Kafka).
 *
 * @param verdict the worst verdict of all findings ({@link Verdict#OK} when there are
 * none)
 * @param findings every finding, OK ones included
 */
public record DoctorReport(Verdict verdict, List<Finding> findings) {

	/**
	 * Exit code of the {@code doctor} command when no finding is {@link Verdict#FAIL}.
	 */
	public static final int EXIT_OK = 0;

	/**
	 * Exit code of the {@code doctor} command when at least one finding is
	 * {@link Verdict#FAIL}.
	 */
	public static final int EXIT_FAIL = 1;

	public DoctorReport {
		findings = List.copyOf(findings);
	}

	public static DoctorReport of(List<Finding> findings) {
		Verdict worst = findings.stream().map(Finding::verdict).reduce(Verdict.OK, Verdict::worst);
		return new DoctorReport(worst, findings);
	}

	/**
	 * {@link #EXIT_FAIL} when a finding is {@link Verdict#FAIL}, else {@link #EXIT_OK}.
	 */
	public int exitCode() {
		return verdict == Verdict.FAIL ? EXIT_FAIL : EXIT_OK;
	}

	/** The findings that are not {@link Verdict#OK}. */
	public List<Finding> problems() {
		return findings.stream().filter(f -> f.verdict() != Verdict.OK).toList();
	}

	/** E.g. {@code 12 findings: 9 OK, 1 UNKNOWN, 2 WARN, 0 FAIL}. */
	public String summary() {
		Map<Verdict, Long> counts = new EnumMap<>(Verdict.class);
		for (Verdict v : Verdict.values()) {
			counts.put(v, 0L);
		}
		findings.forEach(f -> counts.merge(f.verdict(), 1L, Long::sum));
		return findings.size() + " findings: "
				+ counts.entrySet()
					.stream()
					.map(e -> e.getValue() + " " + e.getKey())
					.collect(Collectors.joining(", "));
	}

	/** The whole report as the {@code doctor} command prints it. */
	public String text() {
		StringBuilder out = new StringBuilder("Sawmill doctor: ").append(verdict)
			.append(" (")
			.append(summary())
			.append(")\n");
		for (Finding f : findings) {
			out.append('\n').append(String.format("%-7s %s%n", "[" + f.verdict() + "]", f.check()));
			out.append("        measured: ").append(f.measured()).append('\n');
			if (!f.why().isEmpty()) {
				out.append("        why:      ").append(f.why()).append('\n');
			}
			if (!f.change().isEmpty()) {
				out.append("        change:   ").append(f.change()).append('\n');
			}
		}
		return out.toString();
	}
}
