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
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.sawmill.autoconfigure.SawmillConfigurationException;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.KafkaServer;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.RedisServerProcess;
import io.sawmill.testkit.SampleEvents;

/**
 * Fault scenario 8: a Redis that demands credentials or TLS. With the right password, ACL
 * user or CA, every record is written; with wrong credentials or an untrusted server
 * certificate start-up fails, naming Redis and what to change, and neither the wrong nor
 * the right password appears in the message or in the log.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RedisSecurityIT {

	private static final String PASSWORD = "s3cret-Pa55-7f3a9c";

	private static final String WRONG_PASSWORD = "wr0ng-Pa55-b41e02";

	private static final String ACL_USER = "alice";

	private static final String ACL_PASSWORD = "al1ce-Pa55-c9d2e7";

	private static final VersionedEvents EVENTS = new VersionedEvents(5_000, 1_000);

	private static final int PARTITIONS = 3;

	private static KafkaServer kafka;

	private static Admin admin;

	@BeforeAll
	static void startKafka() {
		kafka = KafkaServer.start();
		admin = Kafka.admin(kafka.bootstrapServers());
	}

	@AfterAll
	static void stopKafka() {
		if (admin != null) {
			admin.close();
		}
		if (kafka != null) {
			kafka.close();
		}
	}

	@Test
	void shouldWriteEveryRecordToARedisWithRequirepass(CapturedOutput output) throws Exception {
		try (RedisServerProcess redis = RedisServerProcess.startNew("--requirepass", PASSWORD)) {
			Map<String, Object> properties = properties("fault-requirepass", redis.port());
			properties.put("spring.data.redis.password", PASSWORD);
			RedisURI uri = RedisURI.builder()
				.withHost(redis.host())
				.withPort(redis.port())
				.withPassword(PASSWORD.toCharArray())
				.build();
			try (RedisReadBack readBack = RedisReadBack.of(uri)) {
				writeAndVerify("8-redis-requirepass", "fault-requirepass", properties, readBack);
			}
		}
		assertThat(output.getAll()).doesNotContain(PASSWORD);
	}

	@Test
	void shouldWriteEveryRecordAsAnAclUser(CapturedOutput output) throws Exception {
		try (RedisServerProcess redis = aclRedis()) {
			Map<String, Object> properties = properties("fault-acl", redis.port());
			properties.put("spring.data.redis.username", ACL_USER);
			properties.put("spring.data.redis.password", ACL_PASSWORD);
			RedisURI uri = RedisURI.builder()
				.withHost(redis.host())
				.withPort(redis.port())
				.withAuthentication(ACL_USER, ACL_PASSWORD.toCharArray())
				.build();
			try (RedisReadBack readBack = RedisReadBack.of(uri)) {
				writeAndVerify("8-redis-acl-user", "fault-acl", properties, readBack);
			}
		}
		assertThat(output.getAll()).doesNotContain(ACL_PASSWORD);
	}

	@Test
	void shouldFailStartUpNamingRedisWithoutShowingTheWrongPassword(CapturedOutput output) throws Exception {
		try (RedisServerProcess redis = RedisServerProcess.startNew("--requirepass", PASSWORD)) {
			Map<String, Object> properties = properties("fault-wrong-password", redis.port());
			properties.put("spring.data.redis.password", WRONG_PASSWORD);
			assertStartUpFailsNamingRedis(properties, redis.port(), "spring.data.redis.username/password", output,
					PASSWORD, WRONG_PASSWORD);
		}
	}

	@Test
	void shouldFailStartUpNamingRedisForAnAclUserWithTheWrongPassword(CapturedOutput output) throws Exception {
		try (RedisServerProcess redis = aclRedis()) {
			Map<String, Object> properties = properties("fault-wrong-acl", redis.port());
			properties.put("spring.data.redis.username", ACL_USER);
			properties.put("spring.data.redis.password", WRONG_PASSWORD);
			assertStartUpFailsNamingRedis(properties, redis.port(), "spring.data.redis.username/password", output,
					ACL_PASSWORD, WRONG_PASSWORD);
		}
	}

	@Test
	void shouldWriteEveryRecordOverTls(CapturedOutput output) throws Exception {
		assumeThat(TestCertificates.opensslAvailable()).as("openssl installed").isTrue();
		TestCertificates certificates = TestCertificates.generate(tlsDir());
		try (TlsRedisServer redis = TlsRedisServer.start(certificates)) {
			Map<String, Object> properties = properties("fault-tls", redis.port());
			trust(properties, certificates.caCertificate());
			RedisURI uri = RedisURI.builder().withHost(redis.host()).withPort(redis.port()).withSsl(true).build();
			ClientOptions tls = ClientOptions.builder()
				.sslOptions(SslOptions.builder()
					.jdkSslProvider()
					.trustManager(certificates.caCertificate().toFile())
					.build())
				.build();
			try (RedisReadBack readBack = RedisReadBack.of(uri, tls)) {
				writeAndVerify("8-redis-tls", "fault-tls", properties, readBack);
			}
		}
	}

	@Test
	void shouldFailStartUpNamingRedisWhenTheServerCertificateIsNotTrusted(CapturedOutput output) throws Exception {
		assumeThat(TestCertificates.opensslAvailable()).as("openssl installed").isTrue();
		TestCertificates server = TestCertificates.generate(tlsDir());
		TestCertificates otherCa = TestCertificates.generate(tlsDir());
		try (TlsRedisServer redis = TlsRedisServer.start(server)) {
			Map<String, Object> properties = properties("fault-tls-untrusted", redis.port());
			trust(properties, otherCa.caCertificate());
			assertStartUpFailsNamingRedis(properties, redis.port(), "spring.data.redis.ssl.enabled", output);
		}
	}

	private static Path tlsDir() throws java.io.IOException {
		Path parent = FaultAssertions.target("fault-tls");
		Files.createDirectories(parent);
		return Files.createTempDirectory(parent, "ca-");
	}

	/**
	 * Requires an ACL user and turns the password-less default user off (Redis 6+
	 * syntax).
	 */
	private static RedisServerProcess aclRedis() {
		return RedisServerProcess.startNew("--user", ACL_USER, "on", ">" + ACL_PASSWORD, "~*", "+@all", "--user",
				"default", "off");
	}

	/** The app trusts {@code ca} for Redis through a PEM SSL bundle. */
	private static void trust(Map<String, Object> properties, Path ca) {
		properties.put("spring.ssl.bundle.pem.redis-tls.truststore.certificate", "file:" + ca);
		properties.put("spring.data.redis.ssl.enabled", true);
		properties.put("spring.data.redis.ssl.bundle", "redis-tls");
	}

	/**
	 * {@link SawmillApp#baseProperties} for a Redis on 127.0.0.1 that is not a plain
	 * RedisServerProcess.
	 */
	private static Map<String, Object> properties(String topic, int redisPort) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("sawmill.topics", topic);
		properties.put("sawmill.group-id", topic);
		properties.put("sawmill.mapping.key-template", SampleEvents.KEY_TEMPLATE);
		properties.put("sawmill.mapping.ttl", "1h");
		properties.put("sawmill.metrics.lag-interval", "1s");
		properties.put("spring.kafka.bootstrap-servers", kafka.bootstrapServers());
		properties.put("spring.data.redis.host", "127.0.0.1");
		properties.put("spring.data.redis.port", redisPort);
		properties.put("server.port", 0);
		return properties;
	}

	// the try keeps Sawmill running for its body, which never calls it
	@SuppressWarnings("try")
	private static void writeAndVerify(String scenario, String topic, Map<String, Object> properties,
			RedisReadBack readBack) throws Exception {
		FaultAssertions.createTopics(admin, topic, PARTITIONS);
		try (ConfigurableApplicationContext app = SawmillApp.run(properties);
				EventProducer producer = new EventProducer(kafka.bootstrapServers(), topic, EVENTS)) {
			producer.send(0, EVENTS.records());
			producer.awaitAllAcknowledged();
			FaultAssertions.assertNothingLost(scenario, admin, topic, topic, PARTITIONS, EVENTS, readBack,
					Duration.ofSeconds(60));
		}
	}

	private static void assertStartUpFailsNamingRedis(Map<String, Object> properties, int port, String action,
			CapturedOutput output, String... secrets) throws Exception {
		String topic = properties.get("sawmill.topics").toString();
		FaultAssertions.createTopics(admin, topic, PARTITIONS);
		assertThatThrownBy(() -> SawmillApp.run(properties).close()).satisfies(ex -> {
			SawmillConfigurationException sawmill = findSawmill(ex);
			System.out.println("FAULT start-up failure: " + sawmill.getMessage() + " | " + sawmill.action());
			assertThat(sawmill.getMessage()).contains("Redis at 127.0.0.1:" + port);
			assertThat(sawmill.action()).contains(action);
			for (Throwable t = ex; t != null; t = t.getCause()) {
				for (String secret : secrets) {
					assertThat(String.valueOf(t.getMessage())).as("message of %s", t.getClass().getName())
						.doesNotContain(secret);
				}
			}
		});
		assertThat(output.getAll()).as("the start-up failure is logged").contains("Redis at 127.0.0.1:" + port);
		for (String secret : secrets) {
			assertThat(output.getAll()).as("the log").doesNotContain(secret);
		}
	}

	private static SawmillConfigurationException findSawmill(Throwable ex) {
		for (Throwable t = ex; t != null; t = t.getCause()) {
			if (t instanceof SawmillConfigurationException sawmill) {
				return sawmill;
			}
		}
		throw new AssertionError("no SawmillConfigurationException in " + ex, ex);
	}

}
