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

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A real schema registry: Apicurio Registry (the distribution src-it's build unpacks into
 * {@code target/apicurio-registry}) in a process of its own, on loopback and a free port,
 * storing in an H2 file so that it can be stopped and started again with its schemas.
 * Clients use its Confluent-compatible API, {@link #url()}. Start one per test class: it
 * takes ten to twenty seconds.
 */
public final class SchemaRegistryServer implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

	/** How much of the registry's log a failed start shows. */
	private static final int OUTPUT_TAIL = 8_000;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Path runner;

	private final Path data;

	private final int port;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private Process process;

	private SchemaRegistryServer(Path runner, Path data, int port) {
		this.runner = runner;
		this.data = data;
		this.port = port;
	}

	public static SchemaRegistryServer start() {
		String home = System.getProperty("sawmill-it.schema-registry-home", "target/apicurio-registry");
		try (Stream<Path> files = Files.list(Path.of(home))) {
			Path runner = files
				.filter(f -> f.getFileName().toString().endsWith("-runner.jar")
						|| f.getFileName().toString().equals("quarkus-run.jar"))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("no Apicurio Registry runner jar in " + home
						+ "; run the build's pre-integration-test phase (it unpacks the registry there)"));
			SchemaRegistryServer server = new SchemaRegistryServer(runner,
					Files.createTempDirectory("sawmill-it-registry"), freePort());
			server.startProcess();
			return server;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The base URL of the Confluent-compatible API. */
	public String url() {
		return "http://127.0.0.1:" + port + "/apis/ccompat/v7";
	}

	/** Stops the registry's process; its schemas stay on disk for {@link #restart()}. */
	public void stop() {
		if (process != null) {
			process.destroy();
			try {
				if (!process.waitFor(30, TimeUnit.SECONDS)) {
					process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			process = null;
		}
	}

	/** Starts the registry again on the same port, with the schemas it had. */
	public void restart() {
		stop();
		startProcess();
	}

	/**
	 * Registers a schema under {@code subject} through the Confluent-compatible API.
	 * @param schemaType AVRO, PROTOBUF or JSON
	 * @return the schema's id, the one its records carry
	 */
	public int register(String subject, String schemaType, String schema) {
		ObjectNode body = JSON.createObjectNode().put("schemaType", schemaType).put("schema", schema);
		HttpRequest request = HttpRequest.newBuilder(URI.create(url() + "/subjects/" + subject + "/versions"))
			.header("Content-Type", "application/vnd.schemaregistry.v1+json")
			.POST(HttpRequest.BodyPublishers.ofString(body.toString()))
			.build();
		try {
			HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() != 200) {
				throw new IllegalStateException(
						"registering " + subject + " answered " + response.statusCode() + ": " + response.body());
			}
			return JSON.readTree(response.body()).get("id").asInt();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void close() {
		stop();
		try (Stream<Path> files = Files.walk(data)) {
			files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
		}
		catch (IOException ex) {
			// a temporary directory left behind
		}
	}

	private void startProcess() {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = List.of(java, "-Xmx384m", "-XX:TieredStopAtLevel=1", "-Dquarkus.http.host=127.0.0.1",
				"-Dquarkus.http.port=" + port,
				"-Dquarkus.datasource.jdbc.url=jdbc:h2:file:" + data.resolve("registry") + ";DB_CLOSE_ON_EXIT=FALSE",
				"-jar", runner.toString());
		try {
			process = new ProcessBuilder(command).directory(runner.getParent().toFile())
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(data.resolve("registry.log").toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		awaitUp();
	}

	private void awaitUp() {
		try {
			await("the schema registry answers").atMost(START_TIMEOUT)
				.pollInterval(Duration.ofMillis(200))
				.failFast("the schema registry exited", () -> !process.isAlive())
				.until(this::answers);
		}
		catch (TerminalFailureException ex) {
			throw new IllegalStateException(
					"the schema registry exited with " + process.exitValue() + "; its output:\n" + output(), ex);
		}
		catch (ConditionTimeoutException ex) {
			stop();
			throw new IllegalStateException(
					"the schema registry did not answer within " + START_TIMEOUT + "; its output:\n" + output(), ex);
		}
	}

	/**
	 * Whether the registry's API answers with a 200; a refused or timed-out connection is
	 * caught here, because Awaitility would see it wrapped in an unchecked exception that
	 * {@code ignoreException(IOException.class)} does not match.
	 */
	private boolean answers() {
		HttpRequest ping = HttpRequest.newBuilder(URI.create(url() + "/subjects"))
			.timeout(Duration.ofSeconds(2))
			.build();
		try {
			return http.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
		}
		catch (IOException notListeningYet) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The end of the registry's log (it keeps every start's), where a failed start says
	 * why.
	 */
	private String output() {
		Path log = data.resolve("registry.log");
		try {
			String text = Files.readString(log);
			return text.length() <= OUTPUT_TAIL ? text : "(" + log + ", last " + OUTPUT_TAIL + " characters)\n"
					+ text.substring(text.length() - OUTPUT_TAIL);
		}
		catch (IOException ex) {
			return "(unreadable: " + log + ": " + ex.getMessage() + ")";
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
