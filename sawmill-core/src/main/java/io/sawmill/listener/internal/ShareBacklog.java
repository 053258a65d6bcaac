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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The share group's backlog as the broker sees it:
 * {@code sawmill.share.backlog.records{share_group,topic,partition}}, the records of each
 * partition the group has not yet acknowledged (Kafka's lag of the share-partition, from
 * {@link Admin#listShareGroupOffsets}), read every {@code interval} on a daemon thread of
 * its own. Every instance reports every partition: aggregate with
 * {@code max by (topic, partition)}. A partition the broker reports no lag for (yet)
 * keeps its last value, or has none; a failed read keeps every value and is logged.
 */
public final class ShareBacklog implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(ShareBacklog.class);

	private final Admin admin;

	private final String group;

	private final MeterRegistry registry;

	private final Duration interval;

	private final Map<TopicPartition, AtomicLong> backlog = new ConcurrentHashMap<>();

	private @Nullable ScheduledExecutorService timer;

	public ShareBacklog(Admin admin, String group, MeterRegistry registry, Duration interval) {
		if (interval.isNegative() || interval.isZero()) {
			throw new IllegalArgumentException("interval must be greater than 0, but was " + interval);
		}
		this.admin = admin;
		this.group = group;
		this.registry = registry;
		this.interval = interval;
	}

	/**
	 * Reads the share group's backlog once and updates the gauges.
	 * @throws Exception when the broker cannot be asked
	 */
	public void refresh() throws Exception {
		Map<TopicPartition, SharePartitionOffsetInfo> offsets = admin
			.listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec()))
			.partitionsToOffsetInfo(group)
			.get(Math.max(interval.toMillis(), 10_000), TimeUnit.MILLISECONDS);
		offsets.forEach((partition, info) -> {
			// a partition the group has not initialised yet comes without its offsets
			if (info != null) {
				info.lag().ifPresent(lag -> gauge(partition).set(lag));
			}
		});
	}

	private AtomicLong gauge(TopicPartition partition) {
		return backlog.computeIfAbsent(partition, p -> {
			AtomicLong records = new AtomicLong();
			Gauge.builder("sawmill.share.backlog.records", records, AtomicLong::get)
				.description("Records of the partition the share group has not acknowledged yet")
				.tags("share_group", group, "topic", p.topic(), "partition", Integer.toString(p.partition()))
				.register(registry);
			return records;
		});
	}

	@Override
	public synchronized void start() {
		if (timer != null) {
			return;
		}
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(task -> {
			Thread thread = new Thread(task, "sawmill-share-backlog");
			thread.setDaemon(true);
			return thread;
		});
		executor.scheduleWithFixedDelay(() -> {
			try {
				refresh();
			}
			catch (InterruptedException ex) {
				// stop() interrupted the read: the executor ends
				Thread.currentThread().interrupt();
			}
			catch (Exception ex) {
				log.warn("Could not read the backlog of share group {}: {}", group, ex.toString());
			}
		}, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
		timer = executor;
	}

	@Override
	public synchronized void stop() {
		ScheduledExecutorService executor = timer;
		if (executor != null) {
			executor.shutdownNow();
			timer = null;
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return timer != null;
	}

}
