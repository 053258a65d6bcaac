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

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

import io.sawmill.testkit.KafkaTestBroker;
import io.sawmill.testkit.LocalKafkaBroker;

/**
 * The Kafka broker of an integration test: a Testcontainers {@code apache/kafka}
 * container where a Docker engine runs, otherwise a real KRaft broker in this JVM.
 * {@code -Dsawmill-it.kafka=embedded} or {@code =container} forces one.
 */
public interface KafkaServer extends AutoCloseable {

	String bootstrapServers();

	void createTopic(String name, int partitions);

	@Override
	void close();

	static KafkaServer start() {
		String choice = System.getProperty("sawmill-it.kafka", "auto");
		boolean container = "container".equals(choice) || ("auto".equals(choice) && dockerAvailable());
		return container ? new Container() : new Local(KafkaTestBroker.start());
	}

	private static boolean dockerAvailable() {
		if (System.getenv("DOCKER_HOST") == null && !Files.exists(Path.of("/var/run/docker.sock"))) {
			return false;
		}
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/**
	 * A broker of the test kit: in this JVM, or in one of its own for the tests that kill
	 * and restart it.
	 */
	record Local(LocalKafkaBroker broker) implements KafkaServer {

		@Override
		public String bootstrapServers() {
			return broker.bootstrapServers();
		}

		@Override
		public void createTopic(String name, int partitions) {
			broker.createTopic(name, partitions);
		}

		@Override
		public void close() {
			broker.close();
		}
	}

	final class Container implements KafkaServer {

		private final KafkaContainer kafka = new KafkaContainer("apache/kafka:4.1.1");

		Container() {
			kafka.start();
		}

		@Override
		public String bootstrapServers() {
			return kafka.getBootstrapServers();
		}

		@Override
		public void createTopic(String name, int partitions) {
			try (Admin admin = Admin.create(java.util.Map.of("bootstrap.servers", bootstrapServers()))) {
				admin.createTopics(java.util.List.of(new NewTopic(name, partitions, (short) 1))).all().get();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

		@Override
		public void close() {
			kafka.stop();
		}

	}

}
