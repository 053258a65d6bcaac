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
package io.sawmill.autoconfigure;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;

import io.sawmill.deadletter.DeadLetterPublisher;
import io.sawmill.deadletter.internal.DeadLetterBrake;
import io.sawmill.health.internal.ListenerContainerHealth;
import io.sawmill.listener.internal.ListenerConfig;
import io.sawmill.listener.internal.ShareBacklog;
import io.sawmill.listener.internal.ShareConfig;
import io.sawmill.listener.internal.ShareConsumers;
import io.sawmill.listener.internal.ShareGroups;
import io.sawmill.listener.internal.ShareMetrics;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.RedisBatchWriter;

/**
 * Share-group consumption ({@code sawmill.consumption.mode=share}): the share consumer
 * threads on the same mapper, writer and dead-letter publisher as the consumer group
 * mode, whose listener container is then built but not started. Refused at start-up where
 * the writes do not converge in any order ({@link ShareModeCheck}).
 */
@AutoConfiguration(after = SawmillAutoConfiguration.class, before = SawmillObservabilityAutoConfiguration.class)
@ConditionalOnClass(KafkaShareConsumer.class)
@ConditionalOnBooleanProperty(name = "sawmill.enabled", matchIfMissing = true)
@ConditionalOnProperty(name = "sawmill.consumption.mode", havingValue = "share")
public final class SawmillShareAutoConfiguration {

	@Bean
	ShareConfig sawmillShareConfig(SawmillProperties properties, ListenerConfig listener, RecordMapper mapper) {
		ShareModeCheck.check(listener, mapper);
		return SawmillConfigAdapter.share(properties, listener);
	}

	/** The consumer group's container stays stopped: the share consumers read instead. */
	@Bean
	SawmillContainerCustomizer sawmillGroupContainerNotStarted() {
		return container -> container.setAutoStartup(false);
	}

	@Bean
	ShareMetrics sawmillShareMetrics(SawmillMetrics metrics, ShareConfig config) {
		return new ShareMetrics(metrics.registry(), config.groupId());
	}

	/**
	 * The share consumers, started once the start-up check passed; the share group starts
	 * from the earliest record unless an operator set otherwise on the group.
	 */
	@Bean
	ShareConsumers sawmillShareConsumers(ShareConfig config, SawmillProperties properties, KafkaProperties kafka,
			ObjectProvider<KafkaConnectionDetails> connectionDetails, RecordMapper mapper, RedisBatchWriter writer,
			DeadLetterPublisher deadLetters, ObjectProvider<DeadLetterBrake> brake, SawmillMetrics metrics,
			ShareMetrics shareMetrics, Admin sawmillAdmin, StartupCheck sawmillStartupCheck) {
		ShareGroups.startFromEarliestUnlessSet(sawmillAdmin, config.groupId(), properties.getStartupTimeout());
		Map<String, Object> consumer = new HashMap<>(kafka.buildConsumerProperties());
		connectionDetails.ifAvailable(details -> consumer.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
				String.join(",", details.getConsumer().getBootstrapServers())));
		DeadLetterBrake deadLetterBrake = brake.getIfAvailable();
		return ShareConsumers.of(config, consumer, mapper, writer,
				deadLetterBrake != null ? deadLetterBrake.guard(deadLetters) : deadLetters, metrics, shareMetrics);
	}

	/**
	 * The share group's backlog per partition, read from the broker every
	 * {@code sawmill.metrics.lag-interval}; off with
	 * {@code sawmill.metrics.group-lag=false}.
	 */
	@Bean
	@ConditionalOnBooleanProperty(name = "sawmill.metrics.group-lag", matchIfMissing = true)
	ShareBacklog sawmillShareBacklog(Admin sawmillAdmin, ShareConfig config, SawmillMetrics metrics,
			SawmillProperties properties) {
		return new ShareBacklog(sawmillAdmin, config.groupId(), metrics.registry(),
				properties.getMetrics().getLagInterval());
	}

	/**
	 * Health: down, with the reason, when a share consumer thread has stopped; there is
	 * no listener container to report on.
	 */
	@Bean
	ListenerContainerHealth sawmillListenerContainerHealth(ShareConsumers consumers) {
		return new ListenerContainerHealth(List::of, () -> null,
				() -> consumers.healthy() || !consumers.isRunning() ? null : "a share consumer thread stopped");
	}

}
