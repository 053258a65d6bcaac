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

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.metrics.internal.SawmillMetrics;

/**
 * The listener's collaborators as the tests of this package build them: no container, no
 * timer.
 */
final class TestListeners {

	private TestListeners() {
	}

	/** The container's listener, each thread's lane built from these. */
	static PipelineBatchListener listener(RecordMapper mapper, ListenerConfig config, PerRecordPipeline pipeline,
			DeadLetterPublisher deadLetters, SawmillMetrics metrics) {
		Redelivery redelivery = redelivery(metrics);
		return new PipelineBatchListener(() -> new ConsumerLane(mapper, config,
				AtLeastOnce.with(pipeline, redelivery, metrics), deadLetters, metrics, redelivery));
	}

	/** A redelivery that seeks back and counts, with no container to pause. */
	static Redelivery redelivery(SawmillMetrics metrics) {
		ListenerConfig config = ListenerConfig.custom().topics(List.of("test")).build();
		return new Redelivery(ListenerProgress.of(config, metrics, Clock.systemUTC()),
				new ContainerPauses((delay, task) -> task.run()), metrics);
	}

	/**
	 * Records {@code from} … {@code from + count - 1} of partition 0 of {@code topic},
	 * each with an empty value.
	 */
	static List<ConsumerRecord<byte[], byte[]>> records(String topic, long from, int count) {
		List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(count);
		for (long offset = from; offset < from + count; offset++) {
			records.add(new ConsumerRecord<>(topic, 0, offset, null, new byte[0]));
		}
		return records;
	}

}
