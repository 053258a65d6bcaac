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

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import io.sawmill.testkit.RedisServerProcess;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real Prometheus server (Debian's {@code prometheus} binary) on a free loopback port,
 * scraping the given targets every second and evaluating the given rule file every
 * second, with its data in a directory of the test's. Read through its HTTP API.
 */
public final class PrometheusServer implements AutoCloseable {

	/** One alert as {@code /api/v1/alerts} lists it. */
	public record Alert(String name, String state, Map<String, String> labels, String activeAt) {
	}

	private final Process process;

	private final int port;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final ObjectMapper json = JsonMapper.builder().build();

	private PrometheusServer(Process process, int port) {
		this.process = process;
		this.port = port;
	}

	/**
	 * Starts Prometheus and waits until it is ready.
	 * @param targets job name to {@code host:port/path} of what to scrape
	 * @param rules a rule file
	 */
	public static PrometheusServer start(Path dir, Map<String, String> targets, Path rules) throws Exception {
		StringBuilder config = new StringBuilder("""
				global:
				  scrape_interval: 1s
				  scrape_timeout: 1s
				  evaluation_interval: 1s
				rule_files:
				  - %s
				scrape_configs:
				""".formatted(rules));
		targets.forEach((job, target) -> {
			int slash = target.indexOf('/');
			config.append("""
					  - job_name: %s
					    metrics_path: %s
					    static_configs:
					      - targets: ['%s']
					""".formatted(job, target.substring(slash), target.substring(0, slash)));
		});
		Path file = Files.writeString(dir.resolve("prometheus.yml"), config);
		int port = RedisServerProcess.freePort();
		Process process = new ProcessBuilder(AlertRules.requireOnPath("prometheus").toString(), "--config.file=" + file,
				"--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
			.redirectErrorStream(true)
			.redirectOutput(dir.resolve("prometheus.log").toFile())
			.start();
		PrometheusServer server = new PrometheusServer(process, port);
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (!server.ready()) {
			if (!process.isAlive() || System.nanoTime() > deadline) {
				server.close();
				throw new IllegalStateException(
						"prometheus did not become ready: " + Files.readString(dir.resolve("prometheus.log")));
			}
			Thread.sleep(200);
		}
		return server;
	}

	private boolean ready() {
		try {
			return get("/-/ready").statusCode() == 200;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/** The alerts pending or firing now. */
	public List<Alert> alerts() throws IOException {
		List<Alert> alerts = new ArrayList<>();
		for (JsonNode alert : api("/api/v1/alerts").path("alerts")) {
			Map<String, String> labels = new TreeMap<>();
			alert.path("labels").properties().forEach(e -> labels.put(e.getKey(), e.getValue().asString()));
			alerts.add(new Alert(labels.get("alertname"), alert.path("state").asString(), labels,
					alert.path("activeAt").asString()));
		}
		return alerts;
	}

	/** The alerts of that name pending or firing now. */
	public List<Alert> alerts(String name) throws IOException {
		return alerts().stream().filter(alert -> alert.name().equals(name)).toList();
	}

	/** The value of an instant query whose result is one sample; NaN when it has none. */
	public double value(String query) throws IOException {
		JsonNode result = api("/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)).path("result");
		return result.isEmpty() ? Double.NaN : Double.parseDouble(result.get(0).path("value").get(1).asString());
	}

	private JsonNode api(String path) throws IOException {
		HttpResponse<String> response = get(path);
		JsonNode body = json.readTree(response.body());
		if (response.statusCode() != 200 || !"success".equals(body.path("status").asString())) {
			throw new IOException(path + " answered " + response.statusCode() + ": " + response.body());
		}
		return body.path("data");
	}

	private HttpResponse<String> get(String path) throws IOException {
		try {
			return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
	}

	@Override
	public void close() {
		process.destroy();
		try {
			if (!process.waitFor(20, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			process.destroyForcibly();
		}
	}

}
