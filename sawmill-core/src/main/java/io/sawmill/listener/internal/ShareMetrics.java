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

import java.util.Locale;

import org.apache.kafka.clients.consumer.AcknowledgeType;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The meters of share-group consumption, tagged with the share group: records acquired,
 * acknowledgements by type ({@code accept}, {@code release}, {@code reject}),
 * redeliveries (records acquired with a delivery count above 1), the delivery count of
 * every record acquired, and acknowledgements the broker refused (the record's lock had
 * expired: another consumer may hold it now). Thread-safe.
 */
public final class ShareMetrics {

	private final Counter acquired;

	private final Counter redeliveries;

	private final DistributionSummary deliveryCount;

	private final Counter[] acknowledged = new Counter[AcknowledgeType.values().length];

	private final Counter acknowledgementsFailed;

	public ShareMetrics(MeterRegistry registry, String shareGroup) {
		this.acquired = Counter.builder("sawmill.share.records.acquired")
			.description("Records acquired from the share group")
			.tag("share_group", shareGroup)
			.register(registry);
		this.redeliveries = Counter.builder("sawmill.share.redeliveries")
			.description("Records acquired again after a release, a lock expiry or a consumer's crash")
			.tag("share_group", shareGroup)
			.register(registry);
		this.deliveryCount = DistributionSummary.builder("sawmill.share.delivery.count")
			.description("The delivery count of each record acquired")
			.tag("share_group", shareGroup)
			.serviceLevelObjectives(1, 2, 3, 5, 10)
			.register(registry);
		for (AcknowledgeType type : AcknowledgeType.values()) {
			acknowledged[type.ordinal()] = Counter.builder("sawmill.share.acknowledgements")
				.description("Records acknowledged to the share group, by type")
				.tags("share_group", shareGroup, "type", type.toString().toLowerCase(Locale.ROOT))
				.register(registry);
		}
		this.acknowledgementsFailed = Counter.builder("sawmill.share.acknowledgement.failures")
			.description("Acknowledgements the broker refused, e.g. because the record's lock had expired")
			.tag("share_group", shareGroup)
			.register(registry);
	}

	/** Called from a consumer thread for each record its poll acquired. */
	void acquired(int delivery) {
		acquired.increment();
		deliveryCount.record(delivery);
		if (delivery > 1) {
			redeliveries.increment();
		}
	}

	void acknowledged(AcknowledgeType type) {
		acknowledged[type.ordinal()].increment();
	}

	void acknowledgementsFailed(int records) {
		acknowledgementsFailed.increment(records);
	}

}
