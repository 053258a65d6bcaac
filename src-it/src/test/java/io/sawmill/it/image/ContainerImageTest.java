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
package io.sawmill.it.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The container image Jib builds of sawmill-app, read from the OCI tarball every build
 * makes on an empty base ({@code sawmill-app/target/jib-image-check.tar}; the released
 * image puts the same layers and settings on {@code debian:12-slim}): non-root, JVM sized
 * from the container, started with its own runtime and the archive written for it, the
 * app's port, and only production dependencies — never the demo's embedded broker.
 */
class ContainerImageTest {

	private static final Path IMAGE = Path.of("..", "sawmill-app", "target", "jib-image-check.tar");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static JsonNode config;

	private static List<String> files;

	private static String classPath;

	@BeforeAll
	static void readImage() throws IOException {
		assertThat(IMAGE).as("built by sawmill-app's package phase").exists();
		Map<String, byte[]> blobs = new HashMap<>();
		try (TarArchiveInputStream tar = new TarArchiveInputStream(Files.newInputStream(IMAGE))) {
			for (TarArchiveEntry entry; (entry = tar.getNextEntry()) != null;) {
				blobs.put(entry.getName(), tar.readAllBytes());
			}
		}
		JsonNode index = JSON.readTree(blobs.get("index.json"));
		JsonNode manifest = JSON.readTree(blob(blobs, index.get("manifests").get(0).get("digest").asString()));
		config = JSON.readTree(blob(blobs, manifest.get("config").get("digest").asString())).get("config");
		files = new ArrayList<>();
		for (JsonNode layer : manifest.get("layers")) {
			try (InputStream gz = new java.util.zip.GZIPInputStream(
					new java.io.ByteArrayInputStream(blob(blobs, layer.get("digest").asString())));
					TarArchiveInputStream tar = new TarArchiveInputStream(gz)) {
				for (TarArchiveEntry entry; (entry = tar.getNextEntry()) != null;) {
					files.add(entry.getName());
					if (entry.getName().endsWith("app/sawmill-app.classpath")) {
						classPath = new String(tar.readAllBytes(), StandardCharsets.UTF_8);
					}
				}
			}
		}
	}

	private static byte[] blob(Map<String, byte[]> blobs, String digest) {
		return blobs.get("blobs/sha256/" + digest.substring("sha256:".length()));
	}

	@Test
	void shouldRunAsANonRootUser() {
		assertThat(config.get("User").asString()).isEqualTo("65532:65532");
	}

	@Test
	void shouldSizeTheHeapFromTheContainerAndExitOnOutOfMemory() {
		List<String> entrypoint = new ArrayList<>();
		config.get("Entrypoint").forEach(arg -> entrypoint.add(arg.asString()));
		assertThat(entrypoint).startsWith("java")
			.contains("-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError")
			.endsWith("io.sawmill.app.SawmillApplication");
	}

	@Test
	void shouldStartWithItsOwnRuntimeAndTheArchiveWrittenForItOnItsClassPath() {
		List<String> entrypoint = new ArrayList<>();
		config.get("Entrypoint").forEach(arg -> entrypoint.add(arg.asString()));
		assertThat(entrypoint).containsSubsequence("-cp", "@/app/sawmill-app.classpath")
			.anyMatch(arg -> arg.equals("-XX:SharedArchiveFile=sawmill-app.jsa")
					|| arg.equals("-XX:AOTCache=sawmill-app.aot"));
		assertThat(config.get("WorkingDir").asString()).isEqualTo("/app");
		assertThat(files).contains("opt/java/bin/java", "app/sawmill-app.classpath")
			.containsAnyOf("app/sawmill-app.jsa", "app/sawmill-app.aot");
	}

	@Test
	void shouldLoadTheJarsInAppExtensionsAfterItsOwn() {
		assertThat(classPath).startsWith("classpath/sawmill-app-").endsWith(":extensions/*");
	}

	@Test
	void shouldExposeTheHttpPort() {
		assertThat(config.get("ExposedPorts").has("8080/tcp")).isTrue();
	}

	@Test
	void shouldNameItsLicenseAndVersionInOciLabels() {
		JsonNode labels = config.get("Labels");
		assertThat(labels.get("org.opencontainers.image.licenses").asString()).isEqualTo("Apache-2.0");
		assertThat(labels.get("org.opencontainers.image.version").asString()).isEqualTo("0.1.0-SNAPSHOT");
	}

	@Test
	void shouldHoldTheAppAndOnlyProductionDependencies() {
		assertThat(files).anyMatch(f -> f.matches(".*app/classpath/sawmill-app-[^/]*\\.jar"))
			.anyMatch(f -> f.matches(".*app/libs/sawmill-core-[^/]*\\.jar"))
			.anyMatch(f -> f.matches(".*app/libs/kafka-clients-[^/]*\\.jar"))
			.anyMatch(f -> f.matches(".*app/libs/lettuce-core-[^/]*\\.jar"));
		assertThat(files).as("the demo's embedded broker and Redis never ship")
			.noneMatch(f -> f
				.matches(".*app/libs/(kafka_2\\.13|spring-kafka-test|embedded-redis|kafka-server)-[^/]*\\.jar"))
			.noneMatch(f -> f.contains("io/sawmill/app/demo/"));
		assertThat(new String(String.join("\n", files).getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
			.doesNotContain("sawmill-core-0.1.0-SNAPSHOT-tests.jar");
	}

}
