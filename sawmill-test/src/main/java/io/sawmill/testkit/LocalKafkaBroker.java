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

/**
 * A real single-node Kafka broker of the test kit on loopback, in this JVM
 * ({@link KafkaTestBroker}) or in one of its own ({@link KafkaBrokerProcess}).
 */
public interface LocalKafkaBroker extends AutoCloseable {

	String bootstrapServers();

	/** Creates the topic with replication factor 1 and returns this broker. */
	LocalKafkaBroker createTopic(String name, int partitions);

	/** Stops the broker. */
	@Override
	void close();

}
