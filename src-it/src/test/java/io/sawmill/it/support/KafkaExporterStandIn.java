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
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.apache.kafka.clients.admin.Admin;

import com.sun.net.httpserver.HttpServer;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sawmill.metrics.internal.GroupLagExporter;

/**
 * Plays kafka-exporter's part in a test: a lag source outside the Sawmill service, which
 * keeps reporting while every Sawmill instance is down. It serves, on {@code /metrics},
 * the series kafka-exporter serves with kafka-exporter's name and labels,
 * {@code kafka_consumergroup_lag{consumergroup,topic,partition}}; the numbers are the
 * group's committed offsets against the end offsets, read from the real broker by
 * {@link GroupLagExporter} every second. It stands in for kafka-exporter, which is not
 * packaged for this machine.
 */
public final class KafkaExporterStandIn implements AutoCloseable {

	private final Admin admin;

	private final GroupLagExporter exporter;

	private final HttpServer server;

	private boolean stopped;

	public KafkaExporterStandIn(String bootstrapServers, String topic, String group) throws IOException {
		this.admin = Kafka.admin(bootstrapServers);
		this.exporter = new GroupLagExporter(admin, List.of(topic), new SimpleMeterRegistry(), group,
				Duration.ofSeconds(1));
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.createContext("/metrics", exchange -> {
			StringBuilder body = new StringBuilder("# TYPE kafka_consumergroup_lag gauge\n");
			exporter.lags()
				.forEach((partition, lag) -> body.append("kafka_consumergroup_lag{consumergroup=\"")
					.append(group)
					.append("\",topic=\"")
					.append(partition.topic())
					.append("\",partition=\"")
					.append(partition.partition())
					.append("\"} ")
					.append(lag)
					.append('\n'));
			byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
			exchange.sendResponseHeaders(200, bytes.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(bytes);
			}
		});
		exporter.start();
		server.start();
	}

	/** {@code host:port/path} to scrape. */
	public String target() {
		return "127.0.0.1:" + server.getAddress().getPort() + "/metrics";
	}

	/**
	 * Stops serving and reading; the scrape target is gone, as when kafka-exporter stops.
	 */
	public synchronized void stop() {
		if (stopped) {
			return;
		}
		stopped = true;
		server.stop(0);
		exporter.stop();
		admin.close(Duration.ofSeconds(5));
	}

	/** {@link #stop() Stops} it, unless a test already did. */
	@Override
	public void close() {
		stop();
	}

}
