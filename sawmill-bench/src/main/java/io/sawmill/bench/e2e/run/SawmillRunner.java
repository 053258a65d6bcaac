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
package io.sawmill.bench.e2e.run;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.Banner;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.app.SawmillApplication;
import io.sawmill.bench.e2e.measure.BatchRecorder;
import io.sawmill.bench.e2e.measure.CapturingMeterRegistry;
import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.bench.e2e.workload.Workload;

/**
 * Strategy 3: the real Sawmill service (sawmill-app) started in this JVM with its
 * defaults; only the topic, group, batch size, mapping (key template and TTL) and the
 * Kafka and Redis addresses (one server, or a cluster's masters) are set, plus any
 * properties the caller adds (a capability's switch, or declarative routes, which replace
 * the topic and the mapping). Per-batch timings come from Sawmill's own
 * {@code sawmill.batch.duration} meter.
 */
public final class SawmillRunner implements AutoCloseable {

	private static BatchRecorder current;

	private final ConfigurableApplicationContext context;

	public SawmillRunner(String bootstrapServers, String topic, String group, int batchSize, Endpoint redis,
			Duration ttl, BatchRecorder recorder) {
		this(bootstrapServers, topic, group, batchSize, redis, ttl, Map.of(), recorder);
	}

	/**
	 * @param properties Spring properties on top of the cell's (a capability's switch),
	 * each replacing a cell property of the same name
	 */
	SawmillRunner(String bootstrapServers, String topic, String group, int batchSize, Endpoint redis, Duration ttl,
			Map<String, String> properties, BatchRecorder recorder) {
		String[] args = arguments(bootstrapServers, topic, group, batchSize, redis, ttl, properties);
		synchronized (SawmillRunner.class) {
			current = recorder;
			context = new SpringApplicationBuilder(SawmillApplication.class, Capture.class).bannerMode(Banner.Mode.OFF)
				.logStartupInfo(false)
				.run(args);
		}
	}

	/**
	 * The app's command line: the cell's properties, then {@code properties}, one
	 * argument per name. When {@code properties} configure {@code sawmill.routes}, the
	 * cell's {@code sawmill.topics} and {@code sawmill.mapping.*} are left out: Sawmill
	 * refuses them next to routes.
	 */
	static String[] arguments(String bootstrapServers, String topic, String group, int batchSize, Endpoint redis,
			Duration ttl, Map<String, String> properties) {
		Map<String, String> all = new LinkedHashMap<>();
		all.put("sawmill.topics", topic);
		all.put("sawmill.group-id", group);
		all.put("sawmill.batch-size", Integer.toString(batchSize));
		all.put("sawmill.mapping.key-template", Workload.KEY_TEMPLATE);
		all.put("sawmill.mapping.ttl", ttl.toSeconds() + "s");
		all.put("spring.kafka.bootstrap-servers", bootstrapServers);
		all.put("server.port", "0");
		all.put("spring.main.banner-mode", "off");
		all.put("logging.level.root", "WARN");
		all.put("logging.level.org.apache.kafka", "ERROR");
		// the workload's Kafka key is its id, so the key template's {id} is the key (no
		// {@key} warning per start)
		all.put("logging.level.io.sawmill.autoconfigure.MappingConfigAdapter", "ERROR");
		all.putAll(redis.springProperties());
		if (properties.keySet().stream().anyMatch(name -> name.startsWith("sawmill.routes"))) {
			all.keySet().removeIf(name -> name.equals("sawmill.topics") || name.startsWith("sawmill.mapping."));
		}
		// one argument per name: Boot joins repeated command-line values with commas
		all.putAll(properties);
		return all.entrySet().stream().map(p -> "--" + p.getKey() + "=" + p.getValue()).toArray(String[]::new);
	}

	@Override
	public void close() {
		context.close();
	}

	/** Adds the capturing registry next to the app's own (Prometheus) one. */
	@Configuration(proxyBeanMethods = false)
	static class Capture {

		@Bean
		MeterRegistry benchCapturingMeterRegistry() {
			return new CapturingMeterRegistry(current);
		}

	}

}
