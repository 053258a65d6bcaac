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
package io.sawmill.it.support;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import org.springframework.boot.Banner;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.sawmill.app.SawmillApplication;
import io.sawmill.testkit.RedisClusterProcess;
import io.sawmill.testkit.RedisSentinelProcess;
import io.sawmill.testkit.RedisServerProcess;

/** Starts the real Sawmill service (sawmill-app) against the test's Kafka and Redis. */
public final class SawmillApp {

	private SawmillApp() {
	}

	/** The properties every test starts from; tests override what they exercise. */
	public static Map<String, Object> baseProperties(KafkaServer kafka, RedisServerProcess redis, String topic,
			String group) {
		Map<String, Object> properties = kafkaProperties(kafka, topic, group);
		properties.put("spring.data.redis.host", redis.host());
		properties.put("spring.data.redis.port", redis.port());
		return properties;
	}

	/**
	 * The same against a Redis Cluster: its masters are the seed nodes, and there is no
	 * host or port.
	 */
	public static Map<String, Object> baseProperties(KafkaServer kafka, RedisClusterProcess cluster, String topic,
			String group) {
		Map<String, Object> properties = kafkaProperties(kafka, topic, group);
		properties.put("spring.data.redis.cluster.nodes",
				cluster.ports().stream().map(port -> cluster.host() + ":" + port).collect(Collectors.joining(",")));
		return properties;
	}

	/**
	 * The same against a Sentinel-managed Redis: the master's name and the Sentinels, no
	 * host or port.
	 */
	public static Map<String, Object> baseProperties(KafkaServer kafka, RedisSentinelProcess sentinel, String topic,
			String group) {
		Map<String, Object> properties = kafkaProperties(kafka, topic, group);
		properties.put("spring.data.redis.sentinel.master", RedisSentinelProcess.MASTER_NAME);
		properties.put("spring.data.redis.sentinel.nodes", sentinel.sentinelNodes());
		return properties;
	}

	private static Map<String, Object> kafkaProperties(KafkaServer kafka, String topic, String group) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("sawmill.topics", topic);
		properties.put("sawmill.group-id", group);
		properties.put("sawmill.mapping.key-template", io.sawmill.testkit.SampleEvents.KEY_TEMPLATE);
		properties.put("sawmill.mapping.ttl", "1h");
		properties.put("sawmill.metrics.lag-interval", "1s");
		properties.put("spring.kafka.bootstrap-servers", kafka.bootstrapServers());
		properties.put("server.port", 0);
		return properties;
	}

	public static Map<String, Object> baseProperties(RealServers servers, String topic, String group) {
		return baseProperties(servers.kafka(), servers.redis(), topic, group);
	}

	public static ConfigurableApplicationContext run(Map<String, Object> properties, Class<?>... extraSources) {
		Class<?>[] sources = new Class<?>[extraSources.length + 1];
		sources[0] = SawmillApplication.class;
		System.arraycopy(extraSources, 0, sources, 1, extraSources.length);
		return new SpringApplicationBuilder(sources).bannerMode(Banner.Mode.OFF)
			.run(Kafka.args(properties).toArray(String[]::new));
	}

}
