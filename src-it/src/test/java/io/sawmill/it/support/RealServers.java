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

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.sawmill.testkit.RedisServerProcess;

/**
 * The real servers of an integration test class: a redis-server on a free port and a
 * Kafka broker ({@link KafkaServer}) with the class's topics, started before its tests
 * and stopped after them. <pre>
 * &#64;RegisterExtension
 * static final RealServers servers = RealServers.withTopic("users", 6);
 * </pre>
 */
public final class RealServers implements BeforeAllCallback, AfterAllCallback {

	private final Map<String, Integer> topics = new LinkedHashMap<>();

	private String[] redisArgs = new String[0];

	private KafkaServer kafka;

	private RedisServerProcess redis;

	private RealServers() {
	}

	public static RealServers withTopic(String topic, int partitions) {
		return new RealServers().andTopic(topic, partitions);
	}

	public RealServers andTopic(String topic, int partitions) {
		topics.put(topic, partitions);
		return this;
	}

	/** Extra redis-server arguments, e.g. {@code --appendonly yes}. */
	public RealServers redisArgs(String... args) {
		this.redisArgs = args.clone();
		return this;
	}

	public KafkaServer kafka() {
		return kafka;
	}

	public RedisServerProcess redis() {
		return redis;
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		redis = RedisServerProcess.startNew(redisArgs);
		kafka = KafkaServer.start();
		topics.forEach(kafka::createTopic);
	}

	@Override
	public void afterAll(ExtensionContext context) {
		if (kafka != null) {
			kafka.close();
		}
		if (redis != null) {
			redis.close();
		}
	}

}
