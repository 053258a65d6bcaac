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

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A health check that answers within a timeout whatever the checked part does: the check
 * runs on a thread of its own, and a caller waits for it at most {@code timeout}, then
 * gets DOWN with the reason. A Kubernetes probe or a load balancer thus never waits
 * longer than that, even while a Redis connection hangs (a frozen server, a dropped
 * network path) until a much longer client timeout.
 * <p>
 * At most one run is in flight: a call that comes while the last run still hangs waits
 * for that same run, so a hung check costs one thread, however often it is asked.
 * Thread-safe.
 */
public final class TimeBoundedCheck {

	private final String name;

	private final Supplier<HealthReport> check;

	private final Duration timeout;

	private final AtomicReference<CompletableFuture<HealthReport>> inFlight = new AtomicReference<>();

	/**
	 * @param name names the check's thread, e.g. {@code redis}
	 * @param check the check itself, which may block
	 * @param timeout how long a caller waits for it
	 */
	public TimeBoundedCheck(String name, Supplier<HealthReport> check, Duration timeout) {
		if (timeout == null || timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("timeout must be greater than 0, but was " + timeout);
		}
		this.name = name;
		this.check = check;
		this.timeout = timeout;
	}

	public Duration timeout() {
		return timeout;
	}

	/**
	 * The check's report, or DOWN with {@code error} when it failed or did not answer
	 * within the timeout.
	 */
	public HealthReport check() {
		CompletableFuture<HealthReport> run = run();
		try {
			return run.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			return down("no answer within " + timeout.toMillis() + " ms");
		}
		catch (ExecutionException ex) {
			return down(String.valueOf(ex.getCause()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return down("interrupted");
		}
	}

	private CompletableFuture<HealthReport> run() {
		while (true) {
			CompletableFuture<HealthReport> running = inFlight.get();
			if (running != null) {
				return running;
			}
			CompletableFuture<HealthReport> started = new CompletableFuture<>();
			if (inFlight.compareAndSet(null, started)) {
				Thread thread = new Thread(() -> {
					try {
						started.complete(check.get());
					}
					catch (RuntimeException | Error ex) {
						started.completeExceptionally(ex);
					}
					finally {
						inFlight.compareAndSet(started, null);
					}
				}, "sawmill-health-" + name);
				thread.setDaemon(true);
				thread.start();
				return started;
			}
		}
	}

	private static HealthReport down(String error) {
		return new HealthReport(false, Map.of("error", error));
	}

}
