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
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;

/**
 * A deserializer jar that the packaged service does not hold, compiled and jarred by the
 * test, is loaded and used by the service: in the image's layout (its runtime, class path
 * file and CDS archive or AOT cache, the jar in {@code /app/extensions}), with the
 * archive still mapped; and by the executable jar with {@code -Dloader.path}. A route
 * reads its values through the jar's deserializer, and Redis holds what it returned.
 */
class ExtensionJarsIT {

	private static final String TOPIC = "extension-values";

	private static final String DESERIALIZER = "com.example.sawmill.UpperCaseDeserializer";

	private static final String SOURCE = """
			package com.example.sawmill;

			import java.nio.charset.StandardCharsets;
			import java.util.Locale;

			import org.apache.kafka.common.serialization.Deserializer;

			public class UpperCaseDeserializer implements Deserializer<String> {

				@Override
				public String deserialize(String topic, byte[] data) {
					return data == null ? null : new String(data, StandardCharsets.UTF_8).toUpperCase(Locale.ROOT);
				}

			}
			""";

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, 1);

	@TempDir
	static Path work;

	private static Path extensionJar;

	@BeforeAll
	static void buildTheExtensionJar() throws IOException, URISyntaxException {
		Path sources = Files.createDirectories(work.resolve("src/com/example/sawmill"));
		Path source = Files.writeString(sources.resolve("UpperCaseDeserializer.java"), SOURCE);
		Path classes = Files.createDirectories(work.resolve("classes"));
		String kafkaClients = Path.of(Deserializer.class.getProtectionDomain().getCodeSource().getLocation().toURI())
			.toString();
		JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
		int compiled = javac.run(null, null, null, "--release", "17", "-cp", kafkaClients, "-d", classes.toString(),
				source.toString());
		assertThat(compiled).as("javac exit code").isZero();
		extensionJar = work.resolve("upper-case-deserializer.jar");
		try (OutputStream file = Files.newOutputStream(extensionJar); JarOutputStream jar = new JarOutputStream(file)) {
			String entry = "com/example/sawmill/UpperCaseDeserializer.class";
			jar.putNextEntry(new JarEntry(entry));
			jar.write(Files.readAllBytes(classes.resolve(entry)));
			jar.closeEntry();
		}
	}

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void shouldLoadAJarFromTheImagesExtensionsDirectoryWithTheArchiveStillMapped() throws Exception {
		Path image = SawmillProcess.execJar().resolveSibling("sawmill-image");
		Path app = Files.createDirectories(work.resolve("image/app"));
		// as Jib lays out /app: its jars where the class path file names them (linked, so
		// that their size and file time are the archive's), the cache's files beside them
		Files.createSymbolicLink(app.resolve("classpath"), image.resolve("app/classpath").toAbsolutePath());
		Files.createSymbolicLink(app.resolve("libs"), image.resolve("app/libs").toAbsolutePath());
		try (var cached = Files.list(image.resolve("cache"))) {
			for (Path file : cached.toList()) {
				Files.copy(file, app.resolve(file.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
			}
		}
		Files.copy(extensionJar,
				Files.createDirectories(app.resolve("extensions")).resolve(extensionJar.getFileName()));
		List<String> jvm = new ArrayList<>(List.of("-Xmx256m"));
		boolean aot = Files.exists(app.resolve("sawmill-app.aot"));
		// refuses to start unless it can use the AOT cache; the CDS archive says it
		// mapped
		jvm.addAll(aot ? List.of("-XX:AOTMode=on", "-XX:AOTCache=sawmill-app.aot")
				: List.of("-Xshare:on", "-XX:SharedArchiveFile=sawmill-app.jsa", "-Xlog:cds=info"));
		jvm.addAll(List.of("-cp", "@sawmill-app.classpath", "io.sawmill.app.SawmillApplication"));
		try (SawmillProcess sawmill = SawmillProcess.start(image.resolve("java/bin/java"), jvm, app,
				properties("extension-image"), FaultAssertions.target("extension-logs").resolve("image.log"))) {
			assertWritesThroughTheDeserializer(sawmill, "from-image");
			if (!aot) {
				assertThat(sawmill.logLinesContaining("Mapped dynamic region")).as(sawmill.logTail()).isPositive();
			}
		}
	}

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void shouldLoadAJarOnTheLoaderPathOfTheExecutableJar() throws Exception {
		Path extensions = Files.createDirectories(work.resolve("exec/extensions"));
		Files.copy(extensionJar, extensions.resolve(extensionJar.getFileName()));
		List<String> jvm = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-Dloader.path=" + extensions, "-cp",
				SawmillProcess.execJar().toString(), "org.springframework.boot.loader.launch.PropertiesLauncher");
		try (SawmillProcess sawmill = SawmillProcess.start(Path.of(System.getProperty("java.home"), "bin", "java"), jvm,
				null, properties("extension-exec"), FaultAssertions.target("extension-logs").resolve("exec.log"))) {
			assertWritesThroughTheDeserializer(sawmill, "from-exec");
		}
	}

	private static Map<String, Object> properties(String group) {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, group);
		properties.remove("sawmill.topics");
		properties.remove("sawmill.mapping.key-template");
		properties.remove("sawmill.mapping.ttl");
		properties.put("sawmill.routes[0].name", "upper");
		properties.put("sawmill.routes[0].topics", TOPIC);
		properties.put("sawmill.routes[0].type", "STRING");
		properties.put("sawmill.routes[0].key-template", "ext:{@key}");
		properties.put("sawmill.routes[0].value-format", "DESERIALIZER");
		properties.put("sawmill.routes[0].value-deserializer", DESERIALIZER);
		return properties;
	}

	private static void assertWritesThroughTheDeserializer(SawmillProcess sawmill, String key) {
		Kafka.produceOne(servers.kafka().bootstrapServers(), TOPIC, key.getBytes(StandardCharsets.UTF_8),
				("hello " + key).getBytes(StandardCharsets.UTF_8));
		try (RedisClient client = RedisClient.create(RedisURI.create(servers.redis().host(), servers.redis().port()));
				StatefulRedisConnection<String, String> connection = client.connect()) {
			await().atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(250))
				.failFast("the service exited", () -> !sawmill.isAlive())
				.until(() -> ("HELLO " + key.toUpperCase(Locale.ROOT)).equals(connection.sync().get("ext:" + key)));
		}
		catch (AssertionError | RuntimeException ex) {
			throw new AssertionError(ex.getMessage() + "\n--- Sawmill's log:\n" + sawmill.logTail(), ex);
		}
	}

}
