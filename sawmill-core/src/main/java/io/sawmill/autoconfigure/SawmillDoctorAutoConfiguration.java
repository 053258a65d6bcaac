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
import java.util.Map;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.sawmill.doctor.internal.Doctor;
import io.sawmill.listener.internal.ListenerConfig;
import io.sawmill.metrics.internal.SawmillMetrics;
import io.sawmill.redis.internal.PipelineConfig;

/**
 * The doctor ({@link Doctor}) on the service's own Kafka and Redis configuration: its
 * report, condensed, in the start-up log, and in full at {@code /actuator/sawmill} when
 * Actuator is present. Independent of the data path, so that the {@code doctor} command
 * can run it with the data path excluded. Like the data path it needs Boot's (or the
 * application's) {@link LettuceConnectionFactory}. {@code sawmill.doctor.enabled=false}
 * turns it off.
 */
@AutoConfiguration(after = { KafkaAutoConfiguration.class, DataRedisAutoConfiguration.class,
		SawmillAutoConfiguration.class, SawmillObservabilityAutoConfiguration.class })
@ConditionalOnClass({ Admin.class, LettuceConnectionFactory.class })
@ConditionalOnBooleanProperty(name = "sawmill.doctor.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SawmillProperties.class)
public final class SawmillDoctorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	Doctor sawmillDoctor(SawmillProperties properties, KafkaProperties kafka,
			ObjectProvider<KafkaConnectionDetails> connectionDetails, LettuceConnectionFactory redis,
			ObjectProvider<ListenerConfig> listener, ObjectProvider<PipelineConfig> pipeline) {
		ListenerConfig listenerConfig = listener
			.getIfAvailable(() -> SawmillConfigAdapter.listener(properties, kafka.getConsumer().getGroupId()));
		PipelineConfig pipelineConfig = pipeline
			.getIfAvailable(() -> SawmillConfigAdapter.pipeline(properties, redis.isRedisSentinelAware()));
		Map<String, Object> admin = new HashMap<>(kafka.buildAdminProperties());
		connectionDetails.ifAvailable(details -> admin.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
				String.join(",", details.getAdmin().getBootstrapServers())));
		Object rack = kafka.buildConsumerProperties().get(ConsumerConfig.CLIENT_RACK_CONFIG);
		return Doctor
			.builder(SawmillConfigAdapter.doctor(properties.getDoctor(), listenerConfig, pipelineConfig,
					rack == null ? null : rack.toString(), properties.getConsumption().getMode()))
			.redis(redis)
			.kafka(admin)
			.build();
	}

	/**
	 * The report in the log once the data path committed its first batch (at once when
	 * there is no data path, as in the {@code doctor} command).
	 */
	@Bean
	@ConditionalOnBooleanProperty(name = "sawmill.doctor.startup-log", matchIfMissing = true)
	DoctorStartupLog sawmillDoctorStartupLog(Doctor doctor, ObjectProvider<SawmillMetrics> metrics) {
		SawmillMetrics dataPath = metrics.getIfAvailable();
		if (dataPath == null) {
			return new DoctorStartupLog(doctor);
		}
		return new DoctorStartupLog(doctor, () -> dataPath.batchDuration().count() > 0,
				DoctorStartupLog.FIRST_COMMIT_WAIT);
	}

	/**
	 * The {@code sawmill} endpoint's report, when Actuator is on the class path and the
	 * data path has not registered the endpoint already ({@link SawmillEndpoint}, which
	 * serves the report too): Actuator allows one endpoint per id.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static final class DoctorEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean({ DoctorEndpoint.class, SawmillEndpoint.class })
		DoctorEndpoint sawmillDoctorEndpoint(Doctor doctor) {
			return new DoctorEndpoint(doctor);
		}

	}

}
