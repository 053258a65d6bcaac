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
package io.sawmill.it.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisServerProcess;
import io.sawmill.testkit.RedisVerifier;
import io.sawmill.testkit.SampleEvents;

/**
 * Kafka over SASL_SSL: a real KRaft broker in this JVM whose only client listener is
 * SASL_SSL (SASL PLAIN over TLS, a throwaway CA), and the service configured the way
 * docs/kubernetes.md and the Helm chart configure it: {@code security.protocol},
 * {@code sasl.mechanism}, {@code sasl.jaas.config} and the CA as a PEM truststore. Every
 * record is written and every offset committed; a wrong password fails start-up instead
 * of consuming nothing.
 */
class KafkaSaslSslIT {

	private static final String TOPIC = "secured-users";

	private static final String GROUP = "secured";

	private static final int PARTITIONS = 3;

	private static final long RECORDS = 5_000;

	private static final String LISTENER = "EXTERNAL";

	private static TestCertificates certificates;

	private static KafkaClusterTestKit broker;

	private static RedisServerProcess redis;

	@BeforeAll
	static void startServers() throws Exception {
		Assumptions.assumeTrue(TestCertificates.opensslAvailable(), "needs the openssl command");
		certificates = TestCertificates.generate(FaultAssertions.target("kafka-sasl-ssl-certificates"));
		String prefix = "listener.name." + LISTENER.toLowerCase() + ".";
		KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(
				new TestKitNodes.Builder().setCombined(true)
					.setNumBrokerNodes(1)
					.setNumControllerNodes(1)
					.setBrokerListenerName(new ListenerName(LISTENER))
					.setControllerListenerName(new ListenerName("CONTROLLER"))
					.build());
		Map<String, Object> config = new HashMap<>();
		// the test kit itself offers PLAINTEXT and SASL_PLAINTEXT only; its protocol map
		// yields to this one
		config.put("listener.security.protocol.map", LISTENER + ":SASL_SSL,CONTROLLER:PLAINTEXT");
		config.put("sasl.enabled.mechanisms", "PLAIN");
		config.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
		config
			.put(prefix + "plain.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required "
					+ "username=\"admin\" password=\"admin-secret\" user_admin=\"admin-secret\" user_sawmill=\"sawmill-secret\";");
		config.put(prefix + "ssl.keystore.type", "PEM");
		config.put(prefix + "ssl.keystore.certificate.chain", Files.readString(certificates.serverCertificate()));
		config.put(prefix + "ssl.keystore.key", Files.readString(certificates.serverKey()));
		config.put(prefix + "ssl.truststore.type", "PEM");
		config.put(prefix + "ssl.truststore.certificates", Files.readString(certificates.caCertificate()));
		config.put("auto.create.topics.enable", "false");
		config.put("group.initial.rebalance.delay.ms", "0");
		config.put("offsets.topic.replication.factor", "1");
		config.put("transaction.state.log.replication.factor", "1");
		config.put("transaction.state.log.min.isr", "1");
		config.forEach(builder::setConfigProp);
		broker = builder.build();
		broker.format();
		broker.startup();
		broker.waitForReadyBrokers();
		redis = RedisServerProcess.startNew();
		try (Admin admin = Admin.create(client("sawmill-secret"))) {
			admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get(60, TimeUnit.SECONDS);
		}
	}

	@AfterAll
	static void stopServers() throws Exception {
		if (broker != null) {
			broker.close();
		}
		if (redis != null) {
			redis.close();
		}
	}

	@Test
	// the try keeps Sawmill running for its body, which never calls it
	@SuppressWarnings("try")
	void shouldConsumeOverSaslSslAndWriteEveryRecord() throws Exception {
		produce();
		try (ConfigurableApplicationContext app = SawmillApp.run(properties("sawmill-secret"));
				Admin admin = Admin.create(client("sawmill-secret"))) {
			Map<TopicPartition, Long> end = endOffsets(admin);
			assertThat(Kafka.sum(end)).isEqualTo(RECORDS);
			await().atMost(Duration.ofMinutes(2))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> Kafka.committedOffsets(admin, GROUP).equals(end));
			RedisVerifier.Result result = RedisVerifier.verify(redis.host(), redis.port(), RECORDS, SampleEvents::key,
					SampleEvents::hash, Duration.ofHours(1));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
		}
	}

	@Test
	void shouldFailStartupWithAWrongPassword() {
		Map<String, Object> properties = properties("wrong-password");
		properties.put("sawmill.group-id", "wrong-password");
		properties.put("sawmill.startup-timeout", "20s");

		assertThatThrownBy(() -> SawmillApp.run(properties).close()).hasStackTraceContaining("Authentication failed");
	}

	/**
	 * The service's properties: what the Helm chart sets for kafka.securityProtocol,
	 * kafka.sasl.* and kafka.tls.*.
	 */
	private static Map<String, Object> properties(String password) {
		Map<String, Object> properties = SawmillApp.baseProperties(new SecuredBroker(), redis, TOPIC, GROUP);
		properties.put("spring.kafka.security.protocol", "SASL_SSL");
		properties.put("spring.kafka.properties.sasl.mechanism", "PLAIN");
		properties.put("spring.kafka.properties.sasl.jaas.config", jaas(password));
		properties.put("spring.kafka.ssl.trust-store-type", "PEM");
		properties.put("spring.kafka.ssl.trust-store-location", certificates.caCertificate().toUri().toString());
		return properties;
	}

	private static Map<String, Object> client(String password) {
		Map<String, Object> client = new HashMap<>();
		client.put("bootstrap.servers", broker.bootstrapServers());
		client.put("security.protocol", "SASL_SSL");
		client.put("sasl.mechanism", "PLAIN");
		client.put("sasl.jaas.config", jaas(password));
		client.put("ssl.truststore.type", "PEM");
		client.put("ssl.truststore.location", certificates.caCertificate().toString());
		return client;
	}

	private static String jaas(String password) {
		return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"sawmill\" password=\""
				+ password + "\";";
	}

	private static void produce() {
		Map<String, Object> config = client("sawmill-secret");
		config.put("acks", "all");
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
				new ByteArraySerializer())) {
			for (long id = 0; id < RECORDS; id++) {
				producer.send(new ProducerRecord<>(TOPIC, SampleEvents.userId(id).getBytes(StandardCharsets.UTF_8),
						SampleEvents.json(id)));
			}
			producer.flush();
		}
	}

	/**
	 * The secured broker as the test support sees one; its topic is created with
	 * credentials in startServers.
	 */
	private static final class SecuredBroker implements KafkaServer {

		@Override
		public String bootstrapServers() {
			return broker.bootstrapServers();
		}

		@Override
		public void createTopic(String name, int partitions) {
			throw new UnsupportedOperationException("created with an authenticated Admin");
		}

		@Override
		public void close() {
		}

	}

	private static Map<TopicPartition, Long> endOffsets(Admin admin) throws Exception {
		return Kafka.endOffsets(admin, TOPIC, PARTITIONS);
	}

}
