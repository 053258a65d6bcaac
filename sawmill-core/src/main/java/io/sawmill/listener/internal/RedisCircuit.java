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
package io.sawmill.listener.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;

/**
 * Backpressure instead of rebalances: a Resilience4j circuit breaker around every
 * pipelined round trip. A round trip counts as failed when a command failed transiently
 * (connection, timeout, LOADING…: {@link Outcomes}) and as slow past
 * {@code slowCallDuration}. When the circuit opens, the listener container is paused
 * ({@link ContainerPauses}) — its consumers keep polling, so Kafka sees them alive and
 * does not rebalance — and when the wait in the open state is over the container resumes:
 * the next batch is the probe that closes the circuit again, or reopens it.
 */
public final class RedisCircuit {

	private static final Logger log = LoggerFactory.getLogger(RedisCircuit.class);

	/**
	 * Batches let through to decide whether Redis is back; a few, so several listener
	 * threads can probe at once.
	 */
	private static final int HALF_OPEN_PROBES = 3;

	private final CircuitBreaker breaker;

	private RedisCircuit(CircuitBreaker breaker) {
		this.breaker = breaker;
	}

	/**
	 * @param failureRate percentage of failed round trips (in the last {@code window})
	 * that opens it
	 * @param slowCallDuration a round trip slower than this counts as slow
	 * @param slowCallRate percentage of slow round trips that opens it
	 * @param window how many recent round trips are looked at; also the minimum before it
	 * can open
	 * @param openWait how long it stays open (partitions paused) before a probe batch is
	 * let through
	 */
	public static RedisCircuit of(String name, float failureRate, Duration slowCallDuration, float slowCallRate,
			int window, Duration openWait) {
		CircuitBreakerConfig config = CircuitBreakerConfig.custom()
			.slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
			.slidingWindowSize(window)
			.minimumNumberOfCalls(Math.min(window, 5))
			.failureRateThreshold(failureRate)
			.slowCallDurationThreshold(slowCallDuration)
			.slowCallRateThreshold(slowCallRate)
			.waitDurationInOpenState(openWait)
			.automaticTransitionFromOpenToHalfOpenEnabled(true)
			.permittedNumberOfCallsInHalfOpenState(HALF_OPEN_PROBES)
			.recordResult(result -> result instanceof Outcomes outcomes && outcomes.redisFailed())
			.build();
		return new RedisCircuit(CircuitBreaker.of(name, config));
	}

	/** A circuit that never opens. */
	public static RedisCircuit disabled(String name) {
		CircuitBreaker breaker = CircuitBreaker.ofDefaults(name);
		breaker.transitionToDisabledState();
		return new RedisCircuit(breaker);
	}

	/**
	 * Pauses the container through {@code pauses} while the circuit is open and resumes
	 * it when a probe may pass.
	 */
	void controls(ContainerPauses pauses) {
		breaker.getEventPublisher().onStateTransition(event -> {
			switch (event.getStateTransition().getToState()) {
				case OPEN, FORCED_OPEN -> {
					log.warn("Redis circuit {}: pausing consumption (consumers keep polling, no rebalance)",
							event.getStateTransition());
					pauses.pauseAll();
				}
				case HALF_OPEN, CLOSED, DISABLED -> {
					log.info("Redis circuit {}: resuming consumption", event.getStateTransition());
					pauses.resumeAll();
				}
				default -> {
				}
			}
		});
	}

	/**
	 * Before a round trip.
	 * @throws CallNotPermittedException while the circuit is open
	 */
	void acquirePermission() {
		breaker.acquirePermission();
	}

	/**
	 * A round trip ended with replies: failed if some record failed transiently, slow if
	 * it took too long.
	 */
	void onReplies(long nanos, Outcomes outcomes) {
		breaker.onResult(nanos, TimeUnit.NANOSECONDS, outcomes);
	}

	/**
	 * A round trip whose outcome says nothing about Redis' health: the permission taken
	 * is given back without a result.
	 */
	void release() {
		breaker.releasePermission();
	}

	/** A round trip ended without replies (the writer threw). */
	void onError(long nanos, Throwable error) {
		breaker.onError(nanos, TimeUnit.NANOSECONDS, error);
	}

	public CircuitBreaker breaker() {
		return breaker;
	}

	public CircuitBreaker.State state() {
		return breaker.getState();
	}

}
