package io.sawmill.bench.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.Banner;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.app.SawmillApplication;

/**
 * Strategy 3: the real Sawmill service (sawmill-app) started in this JVM with its defaults; only the
 * topic, group, batch size, mapping (key template and TTL) and the Kafka and Redis addresses (one
 * server, or a cluster's masters) are set.
 * Per-batch timings come from Sawmill's own {@code sawmill.batch.duration} meter.
 */
final class SawmillRunner implements AutoCloseable {

	private static BatchRecorder current;

	private final ConfigurableApplicationContext context;

	SawmillRunner(String bootstrapServers, String topic, String group, int batchSize, Endpoint redis, Duration ttl,
			BatchRecorder recorder) {
		List<String> args = new ArrayList<>(List.of("--sawmill.topics=" + topic, "--sawmill.group-id=" + group,
				"--sawmill.batch-size=" + batchSize, "--sawmill.mapping.key-template=" + Workload.KEY_TEMPLATE,
				"--sawmill.mapping.ttl=" + ttl.toSeconds() + "s", "--spring.kafka.bootstrap-servers=" + bootstrapServers,
				"--server.port=0", "--spring.main.banner-mode=off", "--logging.level.root=WARN",
				"--logging.level.org.apache.kafka=ERROR",
				// the workload's Kafka key is its id, so the key template's {id} is the key (no {@key} warning per start)
				"--logging.level.io.sawmill.autoconfigure.SawmillConfigAdapter=ERROR"));
		args.addAll(redis.springArguments());
		synchronized (SawmillRunner.class) {
			current = recorder;
			context = new SpringApplicationBuilder(SawmillApplication.class, Capture.class).bannerMode(Banner.Mode.OFF)
				.logStartupInfo(false)
				.run(args.toArray(String[]::new));
		}
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
