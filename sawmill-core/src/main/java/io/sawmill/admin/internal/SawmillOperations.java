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
package io.sawmill.admin.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.MessageListenerContainer;

import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.admin.internal.RoutedTopics.Selection;
import io.sawmill.deadletter.internal.DeadLetterBrake;
import io.sawmill.listener.internal.RedisCircuit;

/**
 * What an operator sees and does on one instance of the service (the {@code sawmill}
 * Actuator endpoint's {@code partitions}, {@code pause}, {@code resume} and
 * {@code redrive}):
 * <ul>
 * <li>{@link #partitions()}: every partition of the topics (with the route that reads
 * each topic), owned here or not, its consumer thread, lag in records and seconds,
 * whether it is paused and why; the Redis circuit, the brake, dead letters per
 * topic;</li>
 * <li>{@link #pause} / {@link #resume}: an operator's pause of a topic, a route's topics
 * (by name, or every topic its pattern matches) or all, on this instance; independent of
 * the circuit's and the brake's pauses (each must be lifted for records to flow);</li>
 * <li>{@link #redrive}: a bounded range of a dead-letter topic produced again to the
 * records' original topic and partition, so the normal path writes them once their cause
 * is fixed.</li>
 * </ul>
 * Operator pauses live in memory: they apply to the instance called and end with it.
 */
public final class SawmillOperations implements ConsumerRebalanceListener, AutoCloseable {

	/**
	 * The header a re-driven record carries: the dead letter it came from,
	 * {@code topic-partition@offset}.
	 */
	public static final String REDRIVEN_FROM_HEADER = Redrive.REDRIVEN_FROM_HEADER;

	/** The largest range {@link #redrive} accepts unless configured otherwise. */
	public static final int DEFAULT_MAX_REDRIVE_RECORDS = 10_000;

	/** How long an operator's call waits for the broker or the consumers. */
	static final Duration TIMEOUT = Duration.ofSeconds(10);

	/**
	 * How often operator pauses are re-applied to partitions assigned since (besides
	 * after each assignment).
	 */
	private static final Duration REAPPLY = Duration.ofSeconds(1);

	private static final Logger log = LoggerFactory.getLogger(SawmillOperations.class);

	private final RoutedTopics topics;

	private final RedisCircuit circuit;

	private final @Nullable DeadLetterBrake brake;

	private final OperatorPauses pauses;

	private final PartitionsView view;

	private final Redrive redrive;

	private final int maxRedriveRecords;

	private final ScheduledExecutorService reapply;

	/**
	 * @param brake null when the brake is off
	 * @param consumerProperties the Kafka client properties to read dead letters with
	 * (security, bootstrap servers)
	 * @param producerProperties the Kafka client properties to re-drive them with
	 * @param maxRedriveRecords the largest range {@link #redrive} accepts
	 */
	public SawmillOperations(MessageListenerContainer container, Admin admin, List<String> topics, String group,
			RedisCircuit circuit, @Nullable DeadLetterBrake brake, MeterRegistry registry,
			Map<String, Object> consumerProperties, Map<String, Object> producerProperties, int maxRedriveRecords) {
		if (maxRedriveRecords < 1) {
			throw new IllegalArgumentException("maxRedriveRecords must be at least 1, but was " + maxRedriveRecords);
		}
		this.topics = new RoutedTopics(topics);
		this.circuit = circuit;
		this.brake = brake;
		this.maxRedriveRecords = maxRedriveRecords;
		this.pauses = new OperatorPauses(container);
		this.view = new PartitionsView(container, admin, this.topics, group, circuit, brake, registry, pauses, TIMEOUT);
		this.redrive = new Redrive(List.copyOf(topics), consumerProperties, producerProperties, TIMEOUT);
		this.reapply = Executors.newSingleThreadScheduledExecutor(runnable -> {
			Thread thread = new Thread(runnable, "sawmill-operator-pauses");
			thread.setDaemon(true);
			return thread;
		});
		this.reapply.scheduleWithFixedDelay(this::reapply, REAPPLY.toMillis(), REAPPLY.toMillis(),
				TimeUnit.MILLISECONDS);
	}

	/**
	 * Lets {@link #pause} and {@link #resume} take a route's name for its topics.
	 * @param routes route name to the topics it reads
	 */
	public SawmillOperations withRoutes(Map<String, List<String>> routes) {
		routes.forEach((name, routed) -> routed.forEach(topic -> topics.select(topic)));
		topics.addRoutes(routes);
		return this;
	}

	/**
	 * Lets {@link #pause} and {@link #resume} take the name of a route with a
	 * {@code topic-pattern}: every topic it matches, including topics created after the
	 * pause; and a topic it matches by its name.
	 * @param routes route name to the pattern of the topics it reads
	 */
	public SawmillOperations withPatternRoutes(Map<String, Pattern> routes) {
		topics.addPatternRoutes(routes);
		return this;
	}

	/**
	 * Every partition of the topics with its owner, lag and pauses; the circuit, the
	 * brake, dead letters per topic.
	 */
	public Map<String, Object> partitions() throws Exception {
		return view.read();
	}

	/**
	 * Pauses consumption of {@code topic} (every topic when null) on this instance until
	 * {@link #resume}, and returns once the consumers have paused its partitions (at most
	 * {@link #TIMEOUT}; {@code confirmed} says whether they did): from then on no new
	 * batch of them is delivered, though one polled before may still be finishing.
	 * @throws IllegalArgumentException when it is not one of the service's topics
	 */
	public Map<String, Object> pause(@Nullable String topic) throws InterruptedException {
		Selection chosen = topics.select(topic);
		boolean confirmed = pauses.pause(chosen, TIMEOUT);
		log.warn("Operator paused consumption of {} on this instance{}", chosen.describe(),
				confirmed ? "" : " (not confirmed by every consumer within " + TIMEOUT + ")");
		Map<String, Object> result = state("paused", chosen);
		result.put("confirmed", confirmed);
		return result;
	}

	/**
	 * Lifts an operator's pause of {@code topic} (every topic when null); a pause by the
	 * Redis circuit or the dead-letter brake stays until they lift it.
	 */
	public Map<String, Object> resume(@Nullable String topic) {
		Selection chosen = topics.select(topic);
		pauses.resume(chosen);
		log.warn("Operator resumed consumption of {} on this instance", chosen.describe());
		return state("resumed", chosen);
	}

	/**
	 * Re-drives the dead letters at offsets {@code [from, to)} of
	 * {@code topic}-{@code partition}.
	 * @return what was read, re-driven and skipped (with why)
	 * @throws IllegalArgumentException for a range that is empty, negative or larger than
	 * the maximum
	 */
	public Map<String, Object> redrive(String topic, int partition, long from, long to) throws Exception {
		if (topic == null || topic.isBlank() || partition < 0 || from < 0 || to <= from) {
			throw new IllegalArgumentException(
					"redrive needs a topic, a partition >= 0 and offsets 0 <= from < to, but was " + "topic=" + topic
							+ " partition=" + partition + " from=" + from + " to=" + to);
		}
		if (to - from > maxRedriveRecords) {
			throw new IllegalArgumentException("redrive range " + from + ".." + to + " is " + (to - from)
					+ " records, more than the maximum of " + maxRedriveRecords
					+ " (sawmill.dead-letter.max-redrive-records): re-drive it in smaller ranges");
		}
		Map<String, Object> result = redrive.run(topic, partition, from, to);
		log.warn("Operator re-drove dead letters {}-{} [{}, {}): {} re-driven, {} skipped", topic, partition, from, to,
				result.get("redriven"),
				((List<?>) Objects.requireNonNull(result.get("skipped"), "run() lists the skipped")).size());
		return result;
	}

	private Map<String, Object> state(String done, Selection chosen) {
		Map<String, Object> result = new LinkedHashMap<>();
		result.put(done, chosen.describe());
		result.put("operatorPaused", pauses.topics());
		result.put("circuit", circuit.state().name());
		result.put("brakeEngaged", brake != null && brake.engaged().isPresent());
		return result;
	}

	private void reapply() {
		try {
			pauses.apply();
		}
		catch (RuntimeException ex) {
			log.warn("Could not re-apply operator pauses: {}", ex.toString());
		}
	}

	@Override
	public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
		// not on the consumer thread: the container's pause takes a lock its stop holds
		// while waiting for that thread
		reapply.execute(this::reapply);
	}

	@Override
	public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
	}

	@Override
	public void close() {
		reapply.shutdownNow();
	}

}
