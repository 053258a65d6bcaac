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
package io.sawmill.health.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class TimeBoundedCheckTests {

	private static final HealthReport UP = new HealthReport(true, Map.of("rttMillis", 0.1));

	@Test
	void shouldReturnTheChecksReportWhenItAnswersInTime() {
		TimeBoundedCheck check = new TimeBoundedCheck("test", () -> UP, Duration.ofSeconds(30));

		assertThat(check.check()).isEqualTo(UP);
	}

	@Test
	void shouldReportDownWithTheReasonWhenTheCheckHangsAndRunItOnlyOnceWhileItHangs() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger runs = new AtomicInteger();
		TimeBoundedCheck check = new TimeBoundedCheck("test", () -> {
			runs.incrementAndGet();
			await(release);
			return UP;
		}, Duration.ofMillis(50));

		HealthReport first = check.check();
		HealthReport second = check.check();

		assertThat(first.up()).isFalse();
		assertThat(first.details()).containsEntry("error", "no answer within 50 ms");
		assertThat(second.up()).isFalse();
		assertThat(runs).hasValue(1);

		release.countDown();
		HealthReport after = check.check();
		for (int attempt = 0; attempt < 1_000 && !after.up(); attempt++) {
			after = check.check(); // the released run may still be clearing itself
		}
		assertThat(after).isEqualTo(UP);
	}

	@Test
	void shouldReportDownWithTheExceptionWhenTheCheckFails() {
		TimeBoundedCheck check = new TimeBoundedCheck("test", () -> {
			throw new IllegalStateException("Redis did not answer PING: connection refused");
		}, Duration.ofSeconds(30));

		HealthReport report = check.check();

		assertThat(report.up()).isFalse();
		assertThat(report.details().get("error").toString()).contains("connection refused");
	}

	@Test
	void shouldRejectATimeoutThatIsNotPositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> new TimeBoundedCheck("test", () -> UP, Duration.ZERO))
			.withMessage("timeout must be greater than 0, but was PT0S");
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
