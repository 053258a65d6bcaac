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

/**
 * How bad a {@link Finding} is, from best to worst. Only {@link #FAIL} makes the
 * {@code doctor} command exit non-zero; the start-up log has a line for every finding
 * that is not {@link #OK}.
 */
enum Verdict {

	/** Measured and fine; nothing to change. */
	OK,

	/**
	 * Could not be measured here (no cgroup file, Redis refused a command, a value the
	 * operator has not given, such as the zone): the finding says what is missing. Does
	 * not fail the command, so that a doctor run on a laptop or on a managed Redis is not
	 * red for what it cannot see.
	 */
	UNKNOWN,

	/**
	 * Works, but costs latency, money or safety margin (throttling now and then,
	 * cross-zone RTT, idle consumers): worth changing, not worth failing a deployment
	 * for.
	 */
	WARN,

	/**
	 * Loses data or stalls the pipeline as configured (an evicting
	 * {@code maxmemory-policy}, fewer replicas than {@code wait-for-replicas}, heavy
	 * throttling): fix before relying on Sawmill.
	 */
	FAIL;

	/** The worse of the two. */
	public Verdict worst(Verdict other) {
		return compareTo(other) >= 0 ? this : other;
	}

}
