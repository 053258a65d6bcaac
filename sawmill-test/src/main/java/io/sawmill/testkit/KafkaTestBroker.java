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
package io.sawmill.testkit;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A real single-node Kafka broker (KRaft) running in this JVM on a free loopback port.
 */
public final class KafkaTestBroker implements LocalKafkaBroker {

	private final EmbeddedKafkaKraftBroker broker;

	private KafkaTestBroker(EmbeddedKafkaKraftBroker broker) {
		this.broker = broker;
	}

	public static KafkaTestBroker start() {
		return start(Map.of());
	}

	/**
	 * A broker that runs share groups (KIP-932) with the given acquisition lock: a record
	 * a consumer neither acknowledged nor released is delivered again once it passed.
	 * Kafka's floor for the lock (15 s) is lowered to 1 s, so a test can see a lock
	 * expire without a long wait. Share groups need the {@code share.version} feature,
	 * which {@link ShareGroupFeature#enable} finalizes after the start.
	 */
	public static KafkaTestBroker startWithShareGroups(Duration recordLock) {
		KafkaTestBroker broker = start(ShareGroupFeature.brokerSettings(recordLock));
		ShareGroupFeature.enable(broker.bootstrapServers());
		return broker;
	}

	private static KafkaTestBroker start(Map<String, String> extra) {
		EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);
		extra.forEach(broker::brokerProperty);
		broker.brokerProperty("auto.create.topics.enable", "false");
		broker.brokerProperty("group.initial.rebalance.delay.ms", "0");
		broker.brokerProperty("log.flush.interval.messages", Long.toString(Long.MAX_VALUE));
		// one broker: transactional producers need their state log on it
		broker.brokerProperty("transaction.state.log.replication.factor", "1");
		broker.brokerProperty("transaction.state.log.min.isr", "1");
		broker.afterPropertiesSet();
		return new KafkaTestBroker(broker);
	}

	@Override
	public KafkaTestBroker createTopic(String name, int partitions) {
		broker.addTopics(new NewTopic(name, partitions, (short) 1));
		return this;
	}

	@Override
	public String bootstrapServers() {
		return broker.getBrokersAsString();
	}

	@Override
	public void close() {
		broker.destroy();
	}

}
